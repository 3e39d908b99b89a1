/** The fake agent's misbehaving output: what a client must survive without running out of memory. */

/** Starts a message on stdout and never ends it: a client must stop reading (and the agent) at its limit. */
export async function endlessMessage(): Promise<never> {
    const chunk = 'x'.repeat(64 * 1024);
    process.stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{"text":"');
    for (;;) {
        if (!process.stdout.write(chunk)) {
            await new Promise(resolve => process.stdout.once('drain', resolve));
        }
    }
}

/** Writes `mib` MiB to stderr without a line break, then one short line. */
export async function floodStderr(mib: number): Promise<void> {
    const chunk = 'e'.repeat(1024 * 1024);
    for (let i = 0; i < mib; i++) {
        if (!process.stderr.write(chunk)) {
            await new Promise(resolve => process.stderr.once('drain', resolve));
        }
    }
    process.stderr.write('\nafter the flood\n');
}
