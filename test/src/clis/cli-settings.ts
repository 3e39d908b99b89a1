import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';

/**
 * User settings of the real CLIs in the sandbox's home: IDE mode on (as after `/ide enable`), an
 * API-key auth type so no login dialog appears, no folder-trust prompt, no telemetry or updates.
 */
export function writeCliSettings(sandbox: Sandbox): void {
    fs.mkdirSync(path.join(sandbox.home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(sandbox.home, '.gemini', 'settings.json'), JSON.stringify({
        ide: { enabled: true },
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        general: { maxAttempts: 1, disableAutoUpdate: true },
        privacy: { usageStatisticsEnabled: false }
    }));
    fs.mkdirSync(path.join(sandbox.home, '.qwen'), { recursive: true });
    fs.writeFileSync(path.join(sandbox.home, '.qwen', 'settings.json'), JSON.stringify({
        ide: { enabled: true },
        security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false }
    }));
}
