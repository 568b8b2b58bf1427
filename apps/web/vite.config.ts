import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The API server (apps/server) listens on PORT 3000 by default and serves /api.
const apiTarget = 'http://localhost:3000';

/**
 * Bootstrap's reboot has `legend + * { clear: left }`: a sibling rule whose left part is a bare element name, which
 * Chromium cannot narrow to some elements, so every element added to or removed from a parent restyled that parent's
 * whole subtree: a virtualised list's every row, on each frame of a scroll (decision 0062). The app's one legend does
 * without it (`float-none`, so nothing after it needs clearing).
 */
const dropLegendSiblingRule = {
  postcssPlugin: 'drop-legend-sibling-rule',
  Rule(rule: { selector: string; remove: () => void }) {
    if (rule.selector === 'legend + *') rule.remove();
  },
};

export default defineConfig({
  plugins: [react()],
  css: {
    postcss: { plugins: [dropLegendSiblingRule] },
    preprocessorOptions: {
      scss: {
        // Bootstrap 5's Sass predates Sass modules: its deprecation warnings (its own and those of the `@import`s
        // in src/app/bootstrap.scss) are not the app's to fix. Bootstrap's docs silence them the same way.
        quietDeps: true,
        silenceDeprecations: ['import'],
      },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React changes far less often than the app: its own chunk stays cached across releases. Other libraries go
        // with the code that uses them, so the landing page loads none that only lazily loaded screens need.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: true } } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
