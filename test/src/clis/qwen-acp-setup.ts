import * as fs from 'fs';
import * as path from 'path';
import { Sandbox } from '../support/sandbox';
import { clientPath } from './client-packages';

const QWEN_BIN = clientPath('.bin', 'qwen');

/** The model the mock answers as; Qwen Code lists it as `$runtime|openai|mock-model(openai)`. */
export const QWEN_MOCK_MODEL = 'mock-model';

/** A fake key: the mock does not check it, Qwen Code only needs one to be set. */
export const FAKE_OPENAI_API_KEY = 'sk-mock-qwen-0000000000000000';

/** Qwen Code's approval modes, as `session/new` lists them. */
export type QwenApprovalMode = 'plan' | 'default' | 'auto-edit' | 'auto' | 'yolo';

export interface QwenAcpOptions {
    /**
     * Without a key `session/new` fails with -32000 "Authentication required: … Missing API key";
     * `authenticate {methodId: 'openai'}` cannot supply one (it only reads env and settings).
     * Default true.
     */
    withApiKey?: boolean;
    /**
     * The mode new sessions start in. Default 'default' (ask before every edit): Qwen Code's own
     * default, 'auto', approves edits inside the workspace without a permission request.
     */
    approvalMode?: QwenApprovalMode;
}

/**
 * Makes the sandbox's backend run the real Qwen Code offline as an ACP agent (`qwen --acp`): `qwen`
 * on its PATH (as after `npm install -g @qwen-code/qwen-code`), the OpenAI-compatible API at the
 * local mock (`mockUrl` is `MockOpenAiApi.url`, without `/v1`), and settings in `$QWEN_HOME` that
 * pick OpenAI auth and turn off what would call out or add model requests of its own: usage
 * statistics (else it posts to an Aliyun RUM endpoint), auto update, memory extraction (a subagent
 * that sends tool-offering requests after each turn) and follow-up suggestions (one more request
 * after each turn, which also delays `end_turn` by seconds).
 *
 * `qwen` relaunches itself as a child node process (for a larger heap), and that child writes
 * `$QWEN_HOME/usage_record.jsonl` after the parent has exited: take `descendantsOf(pid)` while it
 * runs and wait for all of them before `sandbox.dispose()`, or the sandbox comes back.
 */
export function prepareQwenAcp(sandbox: Sandbox, mockUrl: string, options: QwenAcpOptions = {}): void {
    const qwenHome = sandbox.env.QWEN_HOME ?? path.join(sandbox.home, '.qwen');
    fs.mkdirSync(qwenHome, { recursive: true });
    fs.writeFileSync(path.join(qwenHome, 'settings.json'), JSON.stringify({
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        model: { name: QWEN_MOCK_MODEL, generationConfig: { maxRetries: 0 } },
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
        ui: { enableFollowupSuggestions: false },
        tools: { approvalMode: options.approvalMode ?? 'default' },
        security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } }
    }, undefined, 2));
    const bin = path.join(sandbox.root, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, 'qwen'))) {
        fs.symlinkSync(QWEN_BIN, path.join(bin, 'qwen'));
    }
    Object.assign(sandbox.env, {
        PATH: `${bin}:${sandbox.env.PATH}`,
        QWEN_HOME: qwenHome,
        OPENAI_BASE_URL: `${mockUrl}/v1`,
        OPENAI_MODEL: QWEN_MOCK_MODEL,
        ...(options.withApiKey === false ? {} : { OPENAI_API_KEY: FAKE_OPENAI_API_KEY })
    });
}
