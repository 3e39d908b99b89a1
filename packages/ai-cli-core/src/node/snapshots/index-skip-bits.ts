/**
 * Whether a git index (the file's bytes) has an entry marked assume-unchanged or skip-worktree, read from the
 * format git documents (gitformat-index): `false` only when every entry was read and the rest of the file is
 * exactly its extensions and checksum, `undefined` when the file is not one this reader knows (then git is asked).
 * It saves a git process on every first snapshot of a repository folder.
 */
export function indexHasSkipBits(index: Buffer): boolean | undefined {
    if (index.length < 12 || index.toString('latin1', 0, 4) !== 'DIRC') {
        return undefined;
    }
    const version = index.readUInt32BE(4);
    if (version < 2 || version > 4) {
        return undefined;
    }
    // SHA-1 or SHA-256 object names: only one of the two lengths reads the whole file consistently.
    for (const hashBytes of [20, 32]) {
        const found = scanEntries(index, version, hashBytes);
        if (found !== undefined) {
            return found;
        }
    }
    return undefined;
}

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const SKIP_WORKTREE = 0x4000;
const NAME_MASK = 0x0fff;
/** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: ten 32-bit fields. */
const STAT_BYTES = 40;

function scanEntries(index: Buffer, version: number, hashBytes: number): boolean | undefined {
    const count = index.readUInt32BE(8);
    let offset = 12;
    let flagged = false;
    for (let entry = 0; entry < count; entry++) {
        const start = offset;
        offset += STAT_BYTES + hashBytes;
        if (offset + 2 > index.length) {
            return undefined;
        }
        const flags = index.readUInt16BE(offset);
        offset += 2;
        if (flags & EXTENDED) {
            if (version < 3 || offset + 2 > index.length) {
                return undefined;
            }
            flagged ||= (index.readUInt16BE(offset) & SKIP_WORKTREE) !== 0;
            offset += 2;
        }
        flagged ||= (flags & ASSUME_VALID) !== 0;
        if (version === 4) {
            offset = skipVarint(index, offset);
            if (offset < 0) {
                return undefined;
            }
        }
        const nameEnd = index.indexOf(0, offset);
        if (nameEnd < 0) {
            return undefined;
        }
        const nameLength = nameEnd - offset;
        if (version < 4 && (flags & NAME_MASK) !== Math.min(nameLength, NAME_MASK)) {
            return undefined;
        }
        // Versions 2 and 3 pad each entry with 1 to 8 NULs to a multiple of eight bytes; version 4 ends its name with one.
        offset = version === 4 ? nameEnd + 1 : start + ((offset - start + nameLength + 8) & ~7);
    }
    return extensionsEndAtChecksum(index, offset, hashBytes) ? flagged : undefined;
}

/** Git's offset varint (gitformat-index, version 4 path prefixes): the offset after it, or -1. */
function skipVarint(index: Buffer, offset: number): number {
    for (let bytes = 0; bytes < 10 && offset < index.length; bytes++) {
        if ((index[offset++] & 0x80) === 0) {
            return offset;
        }
    }
    return -1;
}

/** Extensions are a 4-byte signature and a 32-bit size each; the file ends with the checksum. */
function extensionsEndAtChecksum(index: Buffer, offset: number, hashBytes: number): boolean {
    while (offset + hashBytes < index.length) {
        if (offset + 8 + hashBytes > index.length) {
            return false;
        }
        offset += 8 + index.readUInt32BE(offset + 4);
    }
    return offset + hashBytes === index.length;
}
