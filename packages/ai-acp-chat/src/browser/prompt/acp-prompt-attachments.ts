import { inject, injectable } from '@theia/core/shared/inversify';
import { ResolvedAIContextVariable } from '@theia/ai-core';
import { ChatRequestModel, ParsedChatRequestVariablePart } from '@theia/ai-chat';
import { ImageContextVariable } from '@theia/ai-chat/lib/common/image-context-variable';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { PromptAttachment } from './acp-prompt-blocks';
import { SELECTION_VARIABLE } from './selection-variable-contribution';

const FILE_VARIABLE_NAME = 'file';
const LINES = /^L(\d+)(?:-(\d+))?$/;

/**
 * What the user attached to a chat message, read from the request: the chat's context (files added
 * to it, pasted images) and the context variables written in the message (`#file:…`, `#selection`).
 */
@injectable()
export class AcpPromptAttachments {
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(FileService) protected readonly files: FileService;

    async of(request: ChatRequestModel): Promise<PromptAttachment[]> {
        const variables = new Map<string, ResolvedAIContextVariable>();
        const inMessage = request.message.parts
            .filter((part): part is ParsedChatRequestVariablePart => part.kind === 'var')
            .map(part => part.resolution)
            .filter(ResolvedAIContextVariable.is);
        for (const variable of [...request.context.variables, ...inMessage]) {
            variables.set(`${variable.variable.name}\0${variable.arg ?? ''}`, variable);
        }
        const attachments = await Promise.all([...variables.values()].map(variable => this.attachment(variable)));
        return attachments.filter((attachment): attachment is PromptAttachment => !!attachment);
    }

    protected async attachment(variable: ResolvedAIContextVariable): Promise<PromptAttachment | undefined> {
        if (ImageContextVariable.isResolvedImageContext(variable)) {
            const image = ImageContextVariable.parseResolved(variable);
            return image && { kind: 'image', label: image.name ?? image.wsRelativePath ?? 'image', data: image.data, mimeType: image.mimeType };
        }
        if (variable.variable.name === SELECTION_VARIABLE.name && variable.arg) {
            const uri = new URI(variable.arg);
            const lines = LINES.exec(uri.fragment);
            if (uri.scheme === 'file' && lines) {
                const start = Number(lines[1]);
                return { kind: 'file', uri: uri.withFragment('').toString(), label: variable.value, text: variable.contextValue, range: { start, end: Number(lines[2] ?? start) } };
            }
        }
        if (variable.variable.name === FILE_VARIABLE_NAME && variable.arg) {
            const uri = await this.fileUri(variable.arg);
            if (uri) {
                return { kind: 'file', uri: uri.toString(), label: variable.value, text: variable.contextValue };
            }
        }
        const name = variable.arg ? `#${variable.variable.name}:${variable.arg}` : `#${variable.variable.name}`;
        return { kind: 'text', label: name, text: variable.contextValue };
    }

    /** Where Theia's `#file` variable reads from: a root-prefixed, root-relative or absolute path. */
    protected async fileUri(arg: string): Promise<URI | undefined> {
        const normalized = arg.replace(/\\/g, '/');
        const roots = this.workspace.tryGetRoots().map(root => root.resource);
        const [first, ...rest] = normalized.split('/');
        const candidates = [
            ...roots.filter(root => root.path.base === first).map(root => rest.length ? root.resolve(rest.join('/')) : root),
            ...roots.map(root => root.resolve(normalized)),
            ...(normalized.startsWith('/') ? [URI.fromFilePath(normalized)] : [])
        ];
        for (const candidate of candidates) {
            if (await this.files.exists(candidate)) {
                return candidate;
            }
        }
        return undefined;
    }
}
