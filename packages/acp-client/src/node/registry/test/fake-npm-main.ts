/*
 * A stand-in for npm in the installer's specs: `node fake-npm-main.js install --prefix <dir> … <name>@<version>`
 * writes `<dir>/node_modules/<name>` as npm would (a package.json with a bin, and the bin, a small
 * node script that prints its arguments). It logs its arguments to $FAKE_NPM_LOG, and fails like npm
 * on a missing package when $FAKE_NPM_FAIL is set.
 */
import * as fs from 'fs';
import * as path from 'path';

const args = process.argv.slice(2);
if (process.env.FAKE_NPM_LOG) {
    fs.writeFileSync(process.env.FAKE_NPM_LOG, JSON.stringify({ args, cwd: process.cwd(), registry: process.env.npm_config_registry }));
}
if (process.env.FAKE_NPM_FAIL) {
    process.stderr.write('npm error code E404\nnpm error 404 Not Found - GET https://registry.example/ - Not found\n');
    process.exit(1);
}
const prefix = args[args.indexOf('--prefix') + 1];
const spec = args[args.length - 1];
const at = spec.indexOf('@', 1);
const name = spec.slice(0, at);
const packageDir = path.join(prefix, 'node_modules', ...name.split('/'));
fs.mkdirSync(path.join(packageDir, 'bin'), { recursive: true });
const bin = process.env.FAKE_NPM_BIN ? JSON.parse(process.env.FAKE_NPM_BIN) : { [name.split('/').pop()!]: 'bin/cli.js', helper: 'bin/cli.js' };
fs.writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify({ name, version: spec.slice(at + 1), bin }));
fs.writeFileSync(path.join(packageDir, 'bin', 'cli.js'), `#!/usr/bin/env node\nconsole.log('${name} ' + process.argv.slice(2).join(' '));\n`);
