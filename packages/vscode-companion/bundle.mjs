// Bundles the extension and the stdio relay into dist/ (the .vsix holds no node_modules).
import { build } from 'esbuild';
import { createRequire } from 'module';

const require = createRequire(import.meta.url);

await build({
    entryPoints: {
        extension: 'lib/node/extension.js',
        'stdio-bridge': require.resolve('@theia-cli-companion/ai-cli-ide-protocol/lib/node/stdio-bridge-main.js')
    },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // The host provides `vscode`; ws loads its native accelerators only if they are installed.
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
    // Smaller to download and to load; names stay, so that stack traces in the log still read.
    minify: true,
    keepNames: true,
    logLevel: 'warning'
});
