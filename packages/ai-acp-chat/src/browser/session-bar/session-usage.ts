import { nls } from '@theia/core/lib/common/nls';
import type * as acp from '@agentclientprotocol/sdk';

/** How full the session's context is and, when the agent says, what it cost so far. */
export interface SessionUsage {
    readonly used: number;
    readonly size: number;
    readonly cost?: { readonly amount: number; readonly currency: string };
}

/** The usage an update reports, when its numbers are numbers (agents are outside input); a cost without a currency is left out. */
export function usageOf(update: acp.UsageUpdate): SessionUsage | undefined {
    const { used, size, cost } = update;
    if (!isCount(used) || !isCount(size)) {
        return undefined;
    }
    const validCost = cost && Number.isFinite(cost.amount) && typeof cost.currency === 'string' && /^[A-Za-z]{3}$/.test(cost.currency) ? cost : undefined;
    return { used, size, ...(validCost ? { cost: { amount: validCost.amount, currency: validCost.currency } } : {}) };
}

function isCount(value: unknown): value is number {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** A token count as people read it: 950, 12.3k, 1.2M. */
export function formatTokens(tokens: number): string {
    if (tokens < 1000) {
        return String(Math.round(tokens));
    }
    const [divisor, unit] = tokens < 1_000_000 ? [1000, 'k'] : [1_000_000, 'M'];
    const scaled = tokens / divisor;
    return `${scaled < 100 ? scaled.toFixed(1).replace(/\.0$/, '') : Math.round(scaled)}${unit}`;
}

/** An amount in the agent's currency; a currency code the browser does not know is shown as sent. */
export function formatCost(cost: { readonly amount: number; readonly currency: string }): string {
    try {
        return new Intl.NumberFormat('en-US', { style: 'currency', currency: cost.currency, maximumFractionDigits: cost.amount < 1 ? 4 : 2 }).format(cost.amount);
    } catch {
        return `${cost.amount} ${cost.currency}`;
    }
}

/** "Context: 12.3k of 200k tokens (6%) · $0.0312": the session's context and, when the agent sends it, its cost. */
export function describeUsage(usage: SessionUsage): string {
    const percent = usage.size > 0 ? Math.round(100 * usage.used / usage.size) : undefined;
    const context = nls.localize('theia-cli-companion/acp-chat/usageContext', 'Context: {0} of {1} tokens', formatTokens(usage.used), formatTokens(usage.size))
        + (percent === undefined ? '' : ` (${percent}%)`);
    return usage.cost ? `${context} · ${formatCost(usage.cost)}` : context;
}

/** What one turn added: "Context after this turn: 13.4k of 200k tokens (+1.2k) · $0.05 (+$0.01)"; undefined when the agent said nothing. */
export function describeTurnUsage(before: SessionUsage | undefined, after: SessionUsage | undefined): string | undefined {
    if (!after || after === before) {
        return undefined;
    }
    const grew = before ? after.used - before.used : undefined;
    const tokens = nls.localize('theia-cli-companion/acp-chat/turnUsage', 'Context after this turn: {0} of {1} tokens', formatTokens(after.used), formatTokens(after.size))
        + (grew === undefined ? '' : ` (${grew >= 0 ? '+' : '−'}${formatTokens(Math.abs(grew))})`);
    if (!after.cost) {
        return tokens;
    }
    const spent = before?.cost && before.cost.currency === after.cost.currency ? after.cost.amount - before.cost.amount : undefined;
    return `${tokens} · ${formatCost(after.cost)}${spent === undefined ? '' : ` (+${formatCost({ amount: Math.max(0, spent), currency: after.cost.currency })})`}`;
}
