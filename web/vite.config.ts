import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/** Where `npm start` serves the console from (src/http/routes/console.ts reads the same folder). */
const outDir = fileURLToPath(new URL('../dist/console', import.meta.url));
/** `npm run dev:console` proxies the API to a registry started with `npm run dev`. */
const api = process.env.SKREG_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root,
  plugins: [react()],
  // Workspace packages the console imports are bundled from their TypeScript sources.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir,
    // The folder sits outside the Vite root, where Vite would otherwise refuse to empty it.
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: true,
    // The console runs under a strict Content-Security-Policy: no inline scripts, no data: modules.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 700,
  },
  server: {
    host: '127.0.0.1',
    proxy: Object.fromEntries(
      ['/v1', '/docs', '/healthz'].map((path) => [
        path,
        {
          target: api,
          changeOrigin: true,
          // The registry refuses cookie-carrying writes from another origin; the dev server is a stand-in
          // for the registry's own origin, so it presents that origin.
          headers: { origin: api },
        },
      ]),
    ),
  },
});
