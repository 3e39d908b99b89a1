import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { IdeProbe } from './ide-probe';
import { Sandbox } from '../support/sandbox';
import { TheiaBackend } from './theia-backend';
import { TheiaWindow } from './theia-window';

/**
 * A window on the backend with a terminal, and the real Gemini CLI IdeClient connected with that
 * terminal's environment from the workspace, diffing enabled. `beforeLoad` sees the page before the app loads.
 */
export async function openWindowWithGeminiProbe(
    sandbox: Sandbox, backend: TheiaBackend, workspace: string, beforeLoad?: (page: Page) => void
): Promise<{ window: TheiaWindow; probe: IdeProbe }> {
    const window = await TheiaWindow.open(sandbox, backend.url, beforeLoad);
    await window.openTerminal();
    const probe = new IdeProbe('gemini', await window.terminalEnvironment(workspace), workspace);
    const report = await probe.connected();
    expect(report.status.status, report.status.details).to.equal('connected');
    expect(report.diffing, 'openDiff and closeDiff are listed').to.equal(true);
    return { window, probe };
}
