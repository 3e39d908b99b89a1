import { useTemporaryHome as useTemporaryTmpAndHome } from '@theia-cli-companion/safe-files/lib/node/test';

/**
 * Points TMPDIR and HOME at a fresh directory for the duration of a test and unsets QWEN_HOME and CLAUDE_CONFIG_DIR,
 * so every CLI's discovery directory is under it and nothing a test writes lands in the real home or /tmp. Returns the
 * directory and a restore function.
 */
export function useTemporaryHome(): { dir: string; restore: () => void } {
    const saved = { QWEN_HOME: process.env.QWEN_HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };
    delete process.env.QWEN_HOME;
    delete process.env.CLAUDE_CONFIG_DIR;
    const home = useTemporaryTmpAndHome();
    return {
        dir: home.dir,
        restore: () => {
            home.restore();
            for (const [key, value] of Object.entries(saved)) {
                if (value !== undefined) {
                    process.env[key] = value;
                }
            }
        }
    };
}
