import type { Page } from 'playwright-core';
import { openWindowWithGeminiProbe } from '../hosts/gemini-probe-window';
import { IdeProbe } from '../hosts/ide-probe';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { createSandbox, createWorkspace, Sandbox } from './sandbox';

export interface GeminiWindowTestbedOptions {
    /** A fresh window and client for each test (closed after it), or one for the whole block. */
    readonly windowPer: 'test' | 'block';
    /** Sees each window's page before the app loads (to record its traffic from the first byte). */
    readonly beforeLoad?: (page: Page) => void;
}

/**
 * The setup the diff specs share: one sandbox and one Theia backend on a `project` workspace of `files` for a
 * `describe` block, and a window on it with the real Gemini CLI IdeClient connected from its terminal, diffing on
 * ({@link openWindowWithGeminiProbe}). The mocha hooks {@link GeminiWindowTestbed.install} registers stop all of it.
 */
export class GeminiWindowTestbed {
    sandbox: Sandbox;
    workspace: string;
    backend: TheiaBackend;
    window: TheiaWindow;
    probe: IdeProbe;

    protected constructor(protected readonly options: GeminiWindowTestbedOptions) { }

    static install(files: Record<string, string>, options: GeminiWindowTestbedOptions): GeminiWindowTestbed {
        const bed = new GeminiWindowTestbed(options);
        before(async () => {
            bed.sandbox = createSandbox();
            bed.workspace = createWorkspace(bed.sandbox, 'project', files);
            bed.backend = new TheiaBackend(bed.sandbox, bed.workspace);
            await bed.backend.start();
            if (options.windowPer === 'block') {
                await bed.openWindow();
            }
        });
        if (options.windowPer === 'test') {
            beforeEach(() => bed.openWindow());
            afterEach(() => bed.closeWindow());
        }
        after(async () => {
            await bed.closeWindow();
            await bed.backend?.stop();
            bed.sandbox?.dispose();
        });
        return bed;
    }

    /** Opens the window and connects its client (the one before must be closed). */
    async openWindow(): Promise<void> {
        ({ window: this.window, probe: this.probe } = await openWindowWithGeminiProbe(this.sandbox, this.backend, this.workspace, this.options.beforeLoad));
    }

    async closeWindow(): Promise<void> {
        await this.probe?.close();
        await this.window?.close();
    }
}
