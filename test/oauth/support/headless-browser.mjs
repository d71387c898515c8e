// The BROWSER for mcp-remote in tests: given the authorization URL, it does what a person would
// — sign in, press Approve — with fetch, then delivers the redirect to the client's loopback
// callback. Plain ESM so xdg-open can run it without a TypeScript loader.
const url = process.argv[2];
const origin = process.env.GH_TEST_AUTH_ORIGIN;
const cookies = new Map();
const jar = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const remember = (res) => {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    cookies.set(pair.slice(0, i), pair.slice(i + 1));
  }
};
const get = async (u) => {
  const res = await fetch(new URL(u, origin), { redirect: 'manual', headers: { cookie: jar() } });
  remember(res);
  return res;
};
const post = async (u, form) => {
  const res = await fetch(new URL(u, origin), { method: 'POST', redirect: 'manual', headers: { cookie: jar(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  remember(res);
  return res;
};
const field = (page, name) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1];

const login = await (await get('/login')).text();
await post('/login', { csrf: field(login, 'csrf'), email: process.env.GH_TEST_EMAIL, password: process.env.GH_TEST_PASSWORD });
let res = await get(url);
while ([302, 303].includes(res.status) && new URL(res.headers.get('location'), origin).origin === origin) res = await get(res.headers.get('location'));
const consent = await res.text();
const decided = await post('/oauth/consent', { csrf: field(consent, 'csrf'), request: field(consent, 'request'), decision: 'approve' });
await fetch(decided.headers.get('location'));
