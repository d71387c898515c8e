/**
 * Server-rendered HTML with escaping by default: every interpolated value is escaped unless it
 * is itself a `SafeHtml` fragment built by this module. Agent- and client-supplied strings
 * (key names, client names, intent titles) are therefore inert wherever they are shown.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

export const STYLESHEET = `
:root{--fg:#1b1f24;--muted:#5b6470;--line:#d9dee4;--bg:#f6f7f9;--accent:#0b5cad;--danger:#a4161a;--ok:#146c2e}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#fff;border-bottom:1px solid var(--line)}header .in{max-width:880px;margin:0 auto;padding:12px 20px;display:flex;gap:20px;align-items:center}
header strong{font-size:17px}header nav{display:flex;gap:14px;flex:1}header a{color:var(--fg);text-decoration:none}header a.on{color:var(--accent);font-weight:600}
main{max-width:880px;margin:24px auto;padding:0 20px}section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:20px;margin-bottom:20px}
h1{font-size:22px;margin:0 0 16px}h2{font-size:17px;margin:0 0 12px}p.muted,.muted{color:var(--muted)}
label{display:block;margin:10px 0 4px;font-weight:600}input[type=text],input[type=email],input[type=password]{width:100%;max-width:380px;padding:8px;border:1px solid var(--line);border-radius:6px;font:inherit}
button{font:inherit;padding:7px 14px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}button.secondary{background:#fff;color:var(--accent)}button.danger{background:#fff;color:var(--danger);border-color:var(--danger)}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:8px 6px;border-bottom:1px solid var(--line);vertical-align:top}th{font-size:13px;color:var(--muted);font-weight:600}
.flash{padding:10px 14px;border-radius:6px;margin-bottom:16px}.flash.error{background:#fbe9ea;color:var(--danger)}.flash.ok{background:#e7f4ea;color:var(--ok)}
code.secret{display:block;padding:12px;background:#111;color:#9fef00;border-radius:6px;word-break:break-all;font-size:14px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;border:1px solid var(--line)}.badge.live{border-color:var(--danger);color:var(--danger)}.badge.revoked{color:var(--muted)}
.inline{display:inline}fieldset{border:0;padding:0;margin:8px 0}fieldset label{display:inline;font-weight:400;margin-right:14px}
`;

export interface LayoutOptions {
  readonly title: string;
  readonly active?: string;
  readonly signedInEmail?: string;
  readonly csrfToken?: string;
  readonly flash?: { kind: 'error' | 'ok'; text: string };
}

/** Pages other modules add appear in the nav by registering here (path → label). */
export const NAV_LINKS: Array<{ path: string; label: string }> = [
  { path: '/keys', label: 'API keys' },
  { path: '/live-money', label: 'Live money' },
  { path: '/intents', label: 'Intents' },
  { path: '/wallet', label: 'Wallet' },
  { path: '/approvals', label: 'Approvals' },
  { path: '/gateway/registry', label: 'Gateway' },
  { path: '/knowledge', label: 'Knowledge' },
  { path: '/connected-apps', label: 'Connected apps' },
];

export function layout(options: LayoutOptions, body: SafeHtml): string {
  const nav = options.signedInEmail
    ? html`<nav>${NAV_LINKS.map((l) => html`<a href="${l.path}" class="${l.path === options.active ? 'on' : ''}">${l.label}</a>`)}</nav>
      <span class="muted">${options.signedInEmail}</span>
      <form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="${options.csrfToken ?? ''}"><button class="secondary" type="submit">Sign out</button></form>`
    : html`<nav></nav>`;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${options.title} · Gatehouse</title><link rel="stylesheet" href="/assets/app.css"></head>
<body><header><div class="in"><strong>Gatehouse</strong>${nav}</div></header><main>
${options.flash ? html`<div class="flash ${options.flash.kind}" role="status">${options.flash.text}</div>` : ''}
${body}</main></body></html>`.value;
}
