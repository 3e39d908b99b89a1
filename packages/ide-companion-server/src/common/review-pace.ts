import type { ReviewOrigin } from './window-protocol';

/** How proposals reach the user: each diff opened (as ever), queued quietly in Pending Changes, or accepted as proposed. */
export const REVIEW_PACES = ['open', 'queue', 'accept'] as const;
export type ReviewPace = typeof REVIEW_PACES[number];

/** The pace of the proposals ACP agents make in a chat (their permission diffs). */
export const ACP_REVIEW_PACE_SETTING = 'aiCliCompanion.acp.reviewPace';

/**
 * The setting whose value paces an origin's proposals: one per CLI flavour, one for the chat's agents;
 * none for an agent task (its changes are reviewed once it has finished).
 */
export function reviewPaceSetting(origin: Pick<ReviewOrigin, 'kind' | 'flavour'>): string | undefined {
    if (origin.kind === 'acp') {
        return ACP_REVIEW_PACE_SETTING;
    }
    return origin.kind === 'cli' && origin.flavour ? `aiCliCompanion.${origin.flavour}.reviewPace` : undefined;
}

/**
 * The pace a setting's user value means. Anything that is not a pace (a hand-edited settings file) and
 * any value a workspace set (the host passes the user's value only) is `open`: a repository that could
 * choose `accept` would have its own agent's edits applied unseen.
 */
export function reviewPaceOf(userValue: unknown): ReviewPace {
    return REVIEW_PACES.find(pace => pace === userValue) ?? 'open';
}
