const BOM = '\uFEFF';

/**
 * Text as it crosses Theia's RPC. The RPC's MessagePack decoder reads longer strings with
 * TextDecoder, which drops a leading U+FEFF: a proposal or an accepted text starting with a BOM
 * would lose it. The BOM therefore travels as a flag beside the rest of the text.
 */
export interface RpcText {
    readonly bom: boolean;
    readonly text: string;
}

export function toRpcText(value: string): RpcText {
    return value.startsWith(BOM) ? { bom: true, text: value.slice(1) } : { bom: false, text: value };
}

/** Decodes and validates: an RPC peer is an external input like any other. */
export function fromRpcText(value: unknown): string {
    const candidate = value as Partial<RpcText> | undefined;
    if (!candidate || typeof candidate.text !== 'string' || typeof candidate.bom !== 'boolean') {
        throw new Error('Expected text as {bom: boolean, text: string}');
    }
    return candidate.bom ? BOM + candidate.text : candidate.text;
}
