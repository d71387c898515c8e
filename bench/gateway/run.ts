/** Alias kept for `npx tsx bench/gateway/run.ts`; the benchmark is `bench/gateway/main.ts` (`npm run bench -- gateway`). */
import './main.ts';
