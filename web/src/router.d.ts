import type { NavigateOptions, To } from 'react-router';

// The console mounts <BrowserRouter>, whose navigate() returns nothing; the library types it as
// `void | Promise<void>` to cover data routers too, and says to narrow it like this.
declare module 'react-router' {
  interface NavigateFunction {
    (to: To, options?: NavigateOptions): void;
    (delta: number): void;
  }
}
