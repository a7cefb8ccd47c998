// Plain-JavaScript start of the analyze branch worker: worker threads do not inherit the main
// thread's TypeScript loader, so register tsx here (as bin/picscan.js does) and load the entry.
import { register } from 'tsx/esm/api';

register();
await import('./analyze-worker-entry.ts');
