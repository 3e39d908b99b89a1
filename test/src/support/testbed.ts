import * as path from 'path';
import { CliFlavourName, IdeProbe } from '../hosts/ide-probe';
import { createSandbox, createWorkspace, Sandbox } from './sandbox';
import { TheiaBackend } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';

/**
 * One sandbox with one Theia backend on one workspace for a `describe` block, plus the windows and
 * CLI probes its tests open: probes and windows are closed after each test, the backend and the
 * sandbox after the block, by the mocha hooks {@link Testbed.install} registers.
 */
export class Testbed {
    sandbox: Sandbox;
    workspace: string;
    backend: TheiaBackend;
    protected readonly windows: TheiaWindow[] = [];
    protected readonly probes: IdeProbe[] = [];

    /** `prepare` runs after the sandbox exists and before the backend starts (CLI settings, PATH). */
    static install(workspaceName: string, files: Record<string, string>, prepare?: (sandbox: Sandbox) => void, workspaceFile?: string): Testbed {
        const bed = new Testbed();
        before(async () => {
            bed.sandbox = createSandbox();
            bed.workspace = createWorkspace(bed.sandbox, workspaceName, files);
            prepare?.(bed.sandbox);
            // A multi-root workspace opens from its .theia-workspace file inside the folder tree.
            bed.backend = new TheiaBackend(bed.sandbox, workspaceFile ? path.join(bed.workspace, workspaceFile) : bed.workspace);
            await bed.backend.start();
        });
        afterEach(() => bed.closeWindowsAndProbes());
        after(async () => {
            await bed.backend?.stop();
            bed.sandbox?.dispose();
        });
        return bed;
    }

    async openWindow(): Promise<TheiaWindow> {
        const window = await TheiaWindow.open(this.sandbox, this.backend.url);
        this.windows.push(window);
        return window;
    }

    probe(flavour: CliFlavourName, env: NodeJS.ProcessEnv, cwd: string): IdeProbe {
        const probe = new IdeProbe(flavour, env, cwd);
        this.probes.push(probe);
        return probe;
    }

    async closeWindowsAndProbes(): Promise<void> {
        await Promise.all(this.probes.splice(0).map(probe => probe.close()));
        await Promise.all(this.windows.splice(0).map(window => window.close()));
    }
}
