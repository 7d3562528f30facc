// Worker thread entry: registers the TypeScript loader in this thread, then runs the load job.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
