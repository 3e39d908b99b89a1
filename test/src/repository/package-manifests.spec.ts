import { expect } from 'chai';
import { execFileSync } from 'child_process';
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
    displayName?: string;
    description?: string;
    icon?: string;
    categories?: string[];
    repository?: unknown;
    capabilities?: { untrustedWorkspaces?: { restrictedConfigurations?: string[] } };
    contributes?: { configuration?: { properties?: Record<string, { scope?: string }> } };
}

/** The VS Code API the oldest supported host provides: code-server 4.100.3 (shared/reference/vscode-hosts.md). */
const OLDEST_VSCODE_API = '1.100.0';
/** The size the extension's README states for the .vsix. */
const VSIX_MAX_BYTES = 750 * 1024;

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
            it('names no repository: the project has no public URL yet', () => {
                expect(manifest.repository).to.equal(undefined);
            });

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

                it('localizes every string it shows: the manifest\'s through package.nls.json, the code\'s through vscode.l10n.t, bundled for translators', () => {
                    const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(dir, 'package.nls.json'), 'utf8'));
                    const placeholders = [...fs.readFileSync(path.join(dir, 'package.json'), 'utf8').matchAll(/"%([^"%]+)%"/g)].map(match => match[1]);
                    expect(placeholders.filter(key => nls[key] === undefined), 'package.json keys package.nls.json lacks').to.deep.equal([]);
                    expect((manifest as { l10n?: string }).l10n).to.equal('./l10n');
                    const bundle: Record<string, string> = JSON.parse(fs.readFileSync(path.join(dir, 'l10n', 'bundle.l10n.json'), 'utf8'));
                    const sourceDir = path.join(dir, 'src', 'node');
                    const raw: string[] = [];
                    for (const file of fs.readdirSync(sourceDir).filter(name => name.endsWith('.ts') && !name.endsWith('.spec.ts'))) {
                        const source = fs.readFileSync(path.join(sourceDir, file), 'utf8');
                        for (const [, text] of source.matchAll(/vscode\.l10n\.t\(\s*'((?:\\.|[^'\\])*)'/g)) {
                            expect(bundle, `${file}: "${text}" in the l10n bundle`).to.have.property(text.replace(/\\(.)/g, '$1'));
                        }
                        expect(source, `${file}: l10n.t takes a literal the bundle can hold`).not.to.match(/l10n\.t\(\s*[`a-zA-Z]/);
                        // What the window shows: a message, or a label, description, title or tooltip, as a literal with words outside of icons and placeholders.
                        const shown = /(?:show(?:Information|Warning|Error)Message\(\s*|\b(?:label|placeHolder|tooltip|description|detail|title|message|text|name)\s*[:=]\s*)(['`])((?:\\.|(?!\1)[^\\])*)\1/g;
                        for (const [, , text] of source.matchAll(shown)) {
                            if (/[A-Za-z]/.test(text.replace(/\$\([\w-]+\)|\$\{(?:[^{}]|\{[^{}]*\})*\}/g, ''))) {
                                raw.push(`${file}: ${text}`);
                            }
                        }
                    }
                    expect(raw, 'strings shown without vscode.l10n.t').to.deep.equal([]);
                });

                it('lets no workspace turn it or a CLI on, choose what runs or turn review off: those settings are application-scoped, user settings only', () => {
                    const properties = manifest.contributes?.configuration?.properties ?? {};
                    const perCli = ['gemini', 'qwen', 'claude'].flatMap(cli => ['enabled', 'command', 'args', 'reviewPace'].map(key => `aiCliCompanion.${cli}.${key}`));
                    const userOnly = ['aiCliCompanion.enabled', ...perCli];
                    for (const key of userOnly) {
                        // `window`, `resource` and `machine-overridable` settings can be set by a folder's .vscode/settings.json; `machine` ones
                        // are ignored in the User settings of a remote window such as code-server's (they go to its Remote settings).
                        expect(properties[key]?.scope, key).to.equal('application');
                    }
                    // What runs and how edits are reviewed are also restricted in a folder the user does not trust.
                    expect(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations).to.include.members(perCli.filter(key => !key.endsWith('.enabled')));
                });

                it('is ready for Open VSX: listing fields, icon, README, CHANGELOG and license inside, a minified bundle under the stated size', () => {
                    expect(manifest.displayName).to.be.a('string');
                    expect(manifest.description).to.be.a('string');
                    expect(manifest.categories).to.be.an('array').that.is.not.empty;
                    expect(manifest.keywords).to.be.an('array').that.is.not.empty;
                    expect(manifest.icon).to.equal('icon.png');
                    const vsix = path.join(dir, 'vsix', `${manifest.name}.vsix`);
                    // python3's zipfile lists it as "name  date time  size", one file per line after the header.
                    const listing = execFileSync('python3', ['-m', 'zipfile', '-l', vsix], { encoding: 'utf8' });
                    const files = listing.split('\n').slice(1).map(line => line.trim().split(/\s+/)[0]).filter(Boolean);
                    expect(files).to.include.members(['extension/package.json', 'extension/package.nls.json', 'extension/readme.md', 'extension/changelog.md',
                        'extension/LICENSE.txt', 'extension/icon.png', 'extension/dist/extension.js', 'extension/dist/stdio-bridge.js', 'extension/l10n/bundle.l10n.json']);
                    expect(files.filter(file => file.startsWith('extension/') && !/^extension\/(dist|l10n)\//.test(file) && !/^extension\/[^/]+$/.test(file)),
                        'nothing but the bundle and its strings in folders (no sources, no node_modules)').to.deep.equal([]);
                    const bundle = fs.readFileSync(path.join(dir, 'dist', 'extension.js'), 'utf8');
                    // Minified, the lines left are those inside template literals (~500); the unminified bundle has tens of thousands.
                    expect(bundle.split('\n').length, 'lines of the bundle').to.be.below(2000);
                    expect(fs.statSync(vsix).size, 'the .vsix').to.be.below(VSIX_MAX_BYTES);
                    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).to.include(`under ${VSIX_MAX_BYTES / 1024} KiB`);
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
