// Plain-JavaScript start of the analyze branch worker when running from the source: worker
// threads do not inherit the main thread's TypeScript loader, so register tsx here (as
// bin/picscan.js does) and load the entry. The build bundles the entry instead, to
// out/main/analyze-worker.js; worker-entry.ts picks one of the two.
import { register } from 'tsx/esm/api';

register();
await import('./analyze-worker-entry.ts');
