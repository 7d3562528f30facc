// Hostile-scenario worker thread entry: registers the TypeScript loader in this thread, lowers the
// thread's priority, then runs the load jobs it is sent (hostile-worker-main.ts).
import { register } from 'tsx/esm/api';

register();
// Lowered before the load's modules load: compiling them is load work too.
const { lowerThisThread } = await import('./priority.ts');
lowerThisThread();
await import('./hostile-worker-main.ts');
