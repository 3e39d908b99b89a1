import * as path from 'path';
import { composeApp as composeAppWith } from '../hosts/composed-app';
import { REPO_ROOT } from '../hosts/theia-backend';

/** A Theia app composed for the startup benchmark: the browser-app, or it with one part left out. */
export interface BenchApp {
    readonly id: string;
    readonly label: string;
    /** The backend's entry point (the build's `lib/backend/main.js`). */
    readonly main: string;
    /** Whether the IDE-mode companion is in it: its status item then marks the frontend ready. */
    readonly hasCompanionStatus: boolean;
}

const BROWSER_APP = path.join(REPO_ROOT, 'browser-app');
const THEIA_AI = ['@theia/ai-core', '@theia/ai-chat', '@theia/ai-chat-ui'];
export const OUR_EXTENSIONS = {
    'ide-companion': { name: '@theia-cli-companion/ai-cli-ide-companion', label: 'the IDE-mode companion' },
    'acp-chat': { name: '@theia-cli-companion/ai-acp-chat', label: 'the ACP chat' },
    'agent-tasks': { name: '@theia-cli-companion/ai-agent-tasks', label: 'agent tasks' }
} as const;
export type OurExtension = keyof typeof OUR_EXTENSIONS;

/** An app of the startup benchmark, composed (composed-app.ts) with `extra` added to the browser-app's Theia packages. */
function composeApp(id: string, label: string, extra: readonly string[]): BenchApp {
    return { ...composeAppWith(id, `Startup benchmark: ${label}`, extra), label, hasCompanionStatus: extra.includes(OUR_EXTENSIONS['ide-companion'].name) };
}

/**
 * The browser-app with the bench-floor extension added: the browser benchmarks run in it, so the context
 * update's floor (page → Theia RPC → backend → SSE) is measured in the same window as our path.
 */
export function benchFloorApp(): BenchApp {
    const all = Object.values(OUR_EXTENSIONS).map(extension => extension.name);
    return composeApp('bench-floor', 'the browser-app with the bench floor', [...THEIA_AI, ...all, '@theia-cli-companion/bench-floor']);
}

/**
 * Every app the startup benchmark compares: the browser-app (all of ours, with Theia AI), the same
 * without each of our extensions (the ACP chat's baseline keeps Theia AI, which it needs), and a plain
 * Theia app with and without Theia AI, for Theia AI's own cost.
 */
export function startupApps(): Record<'full' | 'plain' | 'theia-ai' | `without-${OurExtension}`, BenchApp> {
    const all = Object.values(OUR_EXTENSIONS).map(extension => extension.name);
    const without = (left: OurExtension) => composeApp(`without-${left}`, `the browser-app without ${OUR_EXTENSIONS[left].label}`,
        [...THEIA_AI, ...all.filter(name => name !== OUR_EXTENSIONS[left].name)]);
    return {
        full: { id: 'full', label: 'the browser-app', main: path.join(BROWSER_APP, 'lib', 'backend', 'main.js'), hasCompanionStatus: true },
        plain: composeApp('plain', 'a plain Theia app', []),
        'theia-ai': composeApp('theia-ai', 'a plain Theia app with Theia AI', THEIA_AI),
        'without-ide-companion': without('ide-companion'),
        'without-acp-chat': without('acp-chat'),
        'without-agent-tasks': without('agent-tasks')
    };
}
