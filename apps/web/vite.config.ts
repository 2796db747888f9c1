/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { proxy: { '/api': process.env.BFF_URL ?? 'http://127.0.0.1:8080' } },
  build: {
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    // Rolldown's per-plugin timing table is noise in every build log.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/testing/setup.ts'],
  },
});
