/**
 * Build of the client (DESIGN.md §3): TanStack Router's file-based routes with automatic code
 * splitting (its plugin must run before React's), React, and the PWA (vite-plugin-pwa with our
 * own service worker `sw/sw.ts`, injectManifest). The service worker is off in dev (`vite`),
 * where `/api` is proxied to a running server (`COMPTOIR_API`, default http://127.0.0.1:8080).
 * `build.manifest` lets `bench/bundle.ts` measure what the login route loads.
 */
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const THEME_COLOUR = '#1f4e5f';
const BACKGROUND_COLOUR = '#f6f4ef';

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: 'src/client/routes',
      generatedRouteTree: 'src/client/routeTree.gen.ts',
    }),
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      // Registered by src/client/app/service-worker.ts (workbox-window), after the first render.
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,ico,svg,webmanifest}'],
      },
      manifest: {
        name: 'Comptoir',
        short_name: 'Comptoir',
        description: 'Rapports, ventes et comptages de vos restaurants et magasins.',
        lang: 'fr',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: THEME_COLOUR,
        background_color: BACKGROUND_COLOUR,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': { target: process.env.COMPTOIR_API ?? 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
});
