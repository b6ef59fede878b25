/**
 * The reference server for `npm run soak`, in a process of its own so that what it keeps (every
 * session's event log, for tests to read) does not count against the page's memory. Prints its
 * URL on the first line of stdout; stops on SIGTERM or when stdin closes.
 */
import { startReferenceServer } from '../../server/server';
import { SOAK_SCRIPT } from './soak';

const server = await startReferenceServer({ port: 0, speed: Infinity, scripts: [SOAK_SCRIPT] });
process.stdout.write(`${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
