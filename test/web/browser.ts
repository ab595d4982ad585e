// Debian's chromium driven by playwright-core, as the web view's tests use
// it: a browser download does not work here, so the system's binary
// (scripts/install-test-clients.sh installs it), a fresh profile per launch,
// and no network of its own (no component updates, sync, QUIC, first-run
// pages). close() ends the browser and removes the profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.KAFKAESQUE_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'kafkaesque-chromium-'));
  // launchPersistentContext is playwright's way to give chromium its own --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1200, height: 860 },
    timeout: 30_000,
  });
  context.setDefaultTimeout(10_000);
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
