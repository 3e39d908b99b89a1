import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from './theia-backend';

/** A Theia app composed for a test or a benchmark: the browser-app's Theia packages plus some of ours. */
export interface ComposedApp {
    readonly id: string;
    readonly label: string;
    /** The backend's entry point (the build's `lib/backend/main.js`). */
    readonly main: string;
}

const BROWSER_APP = path.join(REPO_ROOT, 'browser-app');
/** Where composed apps are written and built (ignored by git). */
const APPS_DIR = path.join(REPO_ROOT, 'test', 'composed-apps');

const browserApp = () => JSON.parse(fs.readFileSync(path.join(BROWSER_APP, 'package.json'), 'utf8'));
const versionOf = (name: string) => JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`, { paths: [REPO_ROOT] }), 'utf8')).version as string;

/**
 * Writes and builds an app with the browser-app's configuration and Theia packages plus `extra`, in
 * that order (Theia loads extensions in the order it finds them: a later one can rebind an earlier
 * one's services). An app with none of our packages is built once and reused (its content cannot
 * change between runs); one with ours is rebuilt every run, so it bundles the code under test.
 */
export function composeApp(id: string, label: string, extra: readonly string[]): ComposedApp {
    const dir = path.join(APPS_DIR, id);
    const app = browserApp();
    const theiaPackages = Object.fromEntries(Object.entries(app.dependencies as Record<string, string>).filter(([name]) => name.startsWith('@theia/')));
    const dependencies = { ...theiaPackages, ...Object.fromEntries(extra.map(name => [name, name.startsWith('@theia/') ? versionOf(name) : app.dependencies[name] ?? '0.1.0'])) };
    const manifest = JSON.stringify({
        private: true, name: `composed-app-${id}`, version: '0.1.0', description: `${label}. Written and built by the tests.`,
        theia: app.theia, dependencies, devDependencies: app.devDependencies
    }, undefined, 2) + '\n';
    const main = path.join(dir, 'lib', 'backend', 'main.js');
    const ours = extra.some(name => name.startsWith('@theia-cli-companion/'));
    const manifestFile = path.join(dir, 'package.json');
    const unchanged = fs.existsSync(manifestFile) && fs.readFileSync(manifestFile, 'utf8') === manifest;
    if (ours || !unchanged || !fs.existsSync(main)) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(manifestFile, manifest);
        execFileSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'theia'), ['build', '--mode', 'development'], { cwd: dir, stdio: 'ignore' });
    }
    return { id, label, main };
}
