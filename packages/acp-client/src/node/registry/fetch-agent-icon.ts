import { downloadBounded } from './bounded-download';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_IMAGE = /^data:image\/(svg\+xml|png)(;base64)?,/;
const MAX_ICON_BYTES = 256 * 1024;

/**
 * A registry agent's icon as a `data:` URL, so the IDE shows it without reaching out again: an SVG or
 * PNG of at most 256 KiB, judged by its bytes, not by what the server says it is. Rejects with the reason.
 */
export async function fetchAgentIcon(icon: string, timeoutMs = 10_000): Promise<string> {
    if (icon.startsWith('data:')) {
        if (!DATA_IMAGE.test(icon) || icon.length > MAX_ICON_BYTES * 2) {
            throw new Error('An inline icon must be an SVG or PNG data URL of at most 256 KiB');
        }
        return icon;
    }
    const chunks: Uint8Array[] = [];
    await downloadBounded(icon, { what: 'the agent\'s icon', timeoutMs, maxBytes: MAX_ICON_BYTES }, chunk => {
        chunks.push(chunk);
    });
    const body = Buffer.concat(chunks);
    const type = imageTypeOf(body);
    if (!type) {
        throw new Error(`The icon at ${icon} is neither an SVG nor a PNG image`);
    }
    return `data:${type};base64,${body.toString('base64')}`;
}

function imageTypeOf(body: Buffer): string | undefined {
    if (body.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
        return 'image/png';
    }
    const head = body.subarray(0, 2048).toString('utf8').replace(/^\uFEFF/, '').trimStart();
    return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head) ? 'image/svg+xml' : undefined;
}
