import * as fs from 'fs';
import * as path from 'path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { Sandbox } from '../support/sandbox';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let profiles = 0;

/**
 * Debian's Chromium driven by playwright-core, with its profile and caches inside the sandbox.
 * Each call is a separate browser profile: Theia keeps the layout (terminals included) in the
 * profile's local storage, and windows of one test must not restore each other's terminals.
 */
export async function launchBrowser(sandbox: Sandbox): Promise<BrowserContext> {
    if (!fs.existsSync(CHROMIUM)) {
        throw new Error(`Chromium not found at ${CHROMIUM}: install the Debian package 'chromium' (scripts/test.sh does)`);
    }
    const profile = path.join(sandbox.root, `chromium-profile-${++profiles}`);
    return chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        env: sandbox.env as Record<string, string>,
        viewport: { width: 1400, height: 900 },
        // The diagnostic report is copied to the clipboard; the tests read it back.
        permissions: ['clipboard-read', 'clipboard-write'],
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage']
    });
}

/**
 * Opens the app in a new tab (a new Theia window) and waits until the workbench is usable.
 * `beforeLoad` sees the page before it loads (to listen to its traffic from the first byte).
 */
export async function openTheiaWindow(context: BrowserContext, url: string, beforeLoad?: (page: Page) => void): Promise<Page> {
    const page = await context.newPage();
    beforeLoad?.(page);
    await page.goto(url);
    await waitForWorkbench(page);
    return page;
}

export async function waitForWorkbench(page: Page): Promise<void> {
    await page.waitForSelector('#theia-app-shell', { timeout: 60000 });
    await page.waitForFunction(() => !document.querySelector('.theia-preload'), undefined, { timeout: 60000 });
}
