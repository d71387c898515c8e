/**
 * The benchmark's upstream in its own process, as in any deployment: the fake external MCP
 * server from the gateway tests. Prints its URL on stdout and runs until killed.
 */
import { startFakeUpstream } from '../../test/gateway/fake-upstream.ts';

const upstream = await startFakeUpstream();
process.stdout.write(`${JSON.stringify({ url: upstream.url })}\n`);
process.on('SIGTERM', () => void upstream.close().then(() => process.exit(0)));
