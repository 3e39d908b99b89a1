import { spawn } from 'child_process';
import * as path from 'path';
import { REPO_ROOT } from '../hosts/theia-backend';
import { trackProcess } from '../support/processes';
import { IMAGE } from './deploy-files';

export { IMAGE };
export const IMAGE_REF = `localhost/${IMAGE.name}:${IMAGE.tag}`;

export interface BuiltImage {
    readonly ref: string;
    /** The Debian base it is built on (an image of its own, made by mmdebstrap). */
    readonly base: string;
    readonly megabytes: number;
    readonly seconds: number;
    /** What the build printed. */
    readonly output: string;
}

let building: Promise<BuiltImage> | undefined;

/**
 * `scripts/image.sh --skip-setup`, as `npm run image` runs it after the test command's setup, once per
 * test run: its cached base and CLI layers make a second build only rebuild the app's layer.
 */
export function buildImage(): Promise<BuiltImage> {
    building ??= runImageScript();
    return building;
}

async function runImageScript(): Promise<BuiltImage> {
    const child = spawn('bash', [path.join(REPO_ROOT, 'scripts', 'image.sh'), '--skip-setup'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    trackProcess(child.pid!);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => output += chunk.toString('utf8'));
    child.stderr.on('data', (chunk: Buffer) => output += chunk.toString('utf8'));
    const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
    const built = /^Built (\S+): (\d+) MB in (\d+) s$/m.exec(output);
    const layers = /^Layers: (\S+) \S+ \S+$/m.exec(output);
    if (code !== 0 || !built || !layers) {
        throw new Error(`scripts/image.sh failed (exit ${code}):\n${output.slice(-6000)}`);
    }
    return { ref: built[1], base: layers[1], megabytes: Number(built[2]), seconds: Number(built[3]), output };
}
