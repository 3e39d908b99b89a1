import * as fs from 'fs';
import * as path from 'path';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

/** The repository's root, from test/lib/deploy. */
export const REPO = path.resolve(__dirname, '..', '..', '..');

/** What the image script builds and every platform's manifest must agree with: deploy/image.json. */
export interface ImageFacts {
    readonly name: string;
    readonly tag: string;
    readonly uid: number;
    readonly port: number;
    readonly home: string;
    readonly workspace: string;
    readonly vsix: string;
}

export function readDeployText(file: string): string {
    return fs.readFileSync(path.join(REPO, 'deploy', file), 'utf8');
}

export function readDeployJson<T>(file: string): T {
    return JSON.parse(readDeployText(file)) as T;
}

export function readDeployYaml<T>(file: string): T {
    return parseYaml(readDeployText(file)) as T;
}

/** The documents of a YAML stream (`---`-separated), each as a plain object. */
export function readDeployYamlDocuments<T>(file: string): T[] {
    return parseAllDocuments(readDeployText(file)).map(document => document.toJS() as T);
}

export const IMAGE: ImageFacts = readDeployJson<ImageFacts>('image.json');

/** The versions of the CLIs the repository's tests run against (test/package.json), by npm package. */
export function pinnedVersions(): Record<string, string> {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'test', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    return manifest.devDependencies;
}

/** The .vsix's extension id as VS Code names it: publisher.name of packages/vscode-companion. */
export function vscodeExtensionId(): string {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'packages', 'vscode-companion', 'package.json'), 'utf8')) as { publisher: string; name: string };
    return `${manifest.publisher}.${manifest.name}`;
}

/** The Theia extensions the image's app is built from (browser-app/package.json). */
export function browserAppDependencies(): string[] {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'browser-app', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    return Object.keys(manifest.dependencies);
}

/** A deep copy to break on purpose, the original staying as loaded. */
export function copyOf<T>(value: T): T {
    return structuredClone(value);
}
