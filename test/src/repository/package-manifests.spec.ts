import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import * as semver from 'semver';
import { THEIA_SUPPORT as support } from '../hosts/compat-app';
import { REPO_ROOT } from '../hosts/theia-backend';

interface Manifest {
    name: string;
    license?: string;
    main?: string;
    types?: string;
    files?: string[];
    keywords?: string[];
    theiaExtensions?: object[];
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    private?: boolean;
    engines?: Record<string, string>;
    publisher?: string;
    contributes?: { configuration?: { properties?: Record<string, { scope?: string }> } };
}

/** The VS Code API the oldest supported host provides: code-server 4.100.3 (shared/reference/vscode-hosts.md). */
const OLDEST_VSCODE_API = '1.100.0';

const packagesDir = path.join(REPO_ROOT, 'packages');
/** The Monaco build @theia/monaco pins; every tested release must pin the same (the compatibility test installs into each). */
const MONACO_EDITOR_CORE: string = JSON.parse(fs.readFileSync(require.resolve('@theia/monaco/package.json'), 'utf8')).dependencies['@theia/monaco-editor-core'];
const packages = fs.readdirSync(packagesDir).map(name => ({
    dir: path.join(packagesDir, name),
    manifest: JSON.parse(fs.readFileSync(path.join(packagesDir, name, 'package.json'), 'utf8')) as Manifest
}));

/** What every published package must declare, so that it installs into a user's app as it is (issue: installs anywhere Theia runs). */
describe('Package manifests', () => {
    for (const { dir, manifest } of packages) {
        describe(manifest.name, () => {
            it('takes Theia from the app: every @theia/* is a peer over the supported range, pinned only for this repository\'s build', () => {
                const theiaDependencies = Object.keys(manifest.dependencies ?? {}).filter(name => name.startsWith('@theia/'));
                expect(theiaDependencies, 'direct @theia/* dependencies (a second copy of Theia in older or newer apps)').to.deep.equal([]);
                for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
                    if (name === '@theia/monaco-editor-core') {
                        // Versioned as Monaco, not as Theia: the build every tested release pins, and newer Monaco builds of 1.x.
                        expect(range, name).to.equal(support.monacoEditorCorePeerRange);
                        expect(manifest.devDependencies?.[name], `${name} for this repository's build`).to.equal(MONACO_EDITOR_CORE);
                        continue;
                    }
                    expect(range, name).to.equal(support.peerRange);
                    expect(manifest.devDependencies?.[name], `${name} for this repository's build`).to.equal(support.tested[support.tested.length - 1]);
                }
            });

            it('accepts every Theia 1.x release from the oldest tested on, as npm resolves peer ranges', () => {
                for (const [name, range] of Object.entries(manifest.peerDependencies ?? {}).filter(([peer]) => peer.startsWith('@theia/'))) {
                    const versions = name === '@theia/monaco-editor-core' ? [MONACO_EDITOR_CORE] : [...support.tested, ...support.released];
                    for (const version of versions) {
                        expect(semver.satisfies(version, range), `${name}@${version} against ${range}`).to.equal(true);
                    }
                    if (name !== '@theia/monaco-editor-core') {
                        expect(semver.satisfies('1.71.0', range), `${name}@1.71.0 (older than tested) against ${range}`).to.equal(false);
                        expect(semver.satisfies('2.0.0', range), `${name}@2.0.0 (a new major) against ${range}`).to.equal(false);
                    }
                }
            });

            if (manifest.engines?.vscode) {
                it('is a VS Code extension every supported host loads: packaged as a .vsix, bundled, API no newer than code-server 4.100.3\'s', () => {
                    expect(manifest.license).to.equal('EPL-2.0');
                    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).to.match(/^Eclipse Public License - v 2\.0/);
                    expect(fs.existsSync(path.join(dir, 'README.md')), 'README.md').to.equal(true);
                    expect(manifest.private, 'not an npm package: it ships as a .vsix').to.equal(true);
                    expect(manifest.publisher).to.be.a('string');
                    expect(manifest.engines?.vscode).to.equal(`^${OLDEST_VSCODE_API}`);
                    expect(manifest.devDependencies?.['@types/vscode'], 'typed against the API it declares').to.equal(OLDEST_VSCODE_API);
                    // The build bundles it (the .vsix holds no node_modules) and packs it.
                    expect(fs.existsSync(path.join(dir, manifest.main!)), manifest.main).to.equal(true);
                    expect(fs.existsSync(path.join(dir, 'vsix', `${manifest.name}.vsix`)), 'the .vsix').to.equal(true);
                });

                it('lets no workspace turn it or a CLI on, or choose what runs: those settings are application-scoped, read from user settings only', () => {
                    const properties = manifest.contributes?.configuration?.properties ?? {};
                    const perCli = ['gemini', 'qwen', 'claude'].flatMap(cli => ['enabled', 'command', 'args'].map(key => `aiCliCompanion.${cli}.${key}`));
                    const userOnly = ['aiCliCompanion.enabled', ...perCli];
                    for (const key of userOnly) {
                        // `window`, `resource` and `machine-overridable` settings can be set by a folder's .vscode/settings.json; `machine` ones
                        // are ignored in the User settings of a remote window such as code-server's (they go to its Remote settings).
                        expect(properties[key]?.scope, key).to.equal('application');
                    }
                });
            } else {
                it('is ready to publish: license text, entry points that exist, its files, lib built on pack', () => {
                    expect(manifest.license).to.equal('EPL-2.0');
                    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).to.match(/^Eclipse Public License - v 2\.0/);
                    expect(fs.existsSync(path.join(dir, 'README.md')), 'README.md').to.equal(true);
                    expect(manifest.files).to.include.members(['lib', 'src']);
                    expect(manifest.scripts?.prepack).to.equal('tsc --build');
                    // Built entry points exist once compiled (the unit stage runs after the build).
                    expect(fs.existsSync(path.join(dir, manifest.main!)), manifest.main).to.equal(true);
                    expect(fs.existsSync(path.join(dir, manifest.types!)), manifest.types).to.equal(true);
                    if (manifest.theiaExtensions) {
                        expect(manifest.keywords).to.include('theia-extension');
                    }
                });
            }

            it('takes third-party libraries as ranges, our own packages at their one version', () => {
                for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
                    if (name.startsWith('@theia-cli-companion/')) {
                        expect(version, name).to.match(/^\d+\.\d+\.\d+$/);
                    } else {
                        expect(version, name).to.match(/^[~^]\d+\.\d+\.\d+$/);
                    }
                }
            });
        });
    }
});
