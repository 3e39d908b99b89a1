import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

const GEMINI_BIN = clientPath('.bin', 'gemini');

/**
 * Makes the sandbox's backend run the real Gemini CLI offline as an ACP agent: `gemini` on its
 * PATH (as after `npm install -g @google/gemini-cli`), settings that pick API-key auth and fail fast
 * without network, and the Gemini API at the local mock. Without `apiKey` the user must sign in.
 */
export function prepareGeminiAcp(sandbox: Sandbox, mockUrl: string, apiKey?: string): void {
    fs.mkdirSync(path.join(sandbox.home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(sandbox.home, '.gemini', 'settings.json'), JSON.stringify({
        general: { maxAttempts: 1, disableAutoUpdate: true },
        model: { name: 'gemini-2.5-flash' },
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false }
    }));
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync(GEMINI_BIN, path.join(bin, 'gemini'));
    Object.assign(sandbox.env, { PATH: `${bin}:${sandbox.env.PATH}`, GOOGLE_GEMINI_BASE_URL: mockUrl, ...(apiKey ? { GEMINI_API_KEY: apiKey } : {}) });
}
