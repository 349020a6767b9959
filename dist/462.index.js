export const id = 462;
export const ids = [462];
export const modules = {

/***/ 9462:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  commentOutcome: () => (/* binding */ commentOutcome)
});

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./src/duration.ts
var duration = __webpack_require__(7607);
// EXTERNAL MODULE: ./src/untrusted-text.ts
var untrusted_text = __webpack_require__(8521);
;// CONCATENATED MODULE: ./src/comment-body.ts


/** A hidden marker per job, so a re-run finds and updates its comment instead of posting another. */
function commentMarker(jobId) {
    return `<!-- wait-for-mintlify-agent-job: ${encodeURIComponent(jobId)} -->`;
}
function outcomeText(result, context) {
    switch (result.outcome) {
        case 'completed': {
            const pr = (0,untrusted_text/* httpUrl */.q3)(result.job?.prLink);
            return pr
                ? `✅ **The Mintlify agent finished** and opened a pull request: <a href="${(0,untrusted_text/* forMarkdown */.Bm)(pr.href)}">${(0,untrusted_text/* forMarkdown */.Bm)(pr.href)}</a>`
                : '✅ **The Mintlify agent finished** without changing any files, so there is no pull request.';
        }
        case 'failed':
            return '❌ **The Mintlify agent job failed**: the agent hit an unrecoverable error. The Mintlify dashboard shows why.';
        case 'archived':
            return '🗄️ **The Mintlify agent job was archived.**';
        case 'timeout':
            return `⏱️ **Stopped waiting after ${(0,duration/* formatDuration */.a)(context.timeoutMs)}**: the Mintlify agent job was ${result.job ? `still ${(0,untrusted_text/* forMarkdown */.Bm)(result.job.status)}` : 'never readable'}. It may still finish; the Mintlify dashboard shows its progress.`;
        case 'error':
        case 'cancelled':
            return `❌ **Could not wait for the Mintlify agent job**: ${(0,untrusted_text/* forMarkdown */.Bm)(context.message, 1000)}`;
    }
}
/** The comment's Markdown: marker, outcome, the job and a link to the run. All API text is escaped. */
function renderComment(result, context) {
    const details = [`job <code>${(0,untrusted_text/* forMarkdown */.Bm)(context.jobId)}</code>`];
    if (result.job?.model)
        details.push(`model ${(0,untrusted_text/* forMarkdown */.Bm)(result.job.model)}`);
    details.push(`waited ${(0,duration/* formatDuration */.a)(result.elapsedMs)}`);
    details.push(`<a href="${(0,untrusted_text/* forMarkdown */.Bm)(context.runUrl)}">workflow run</a>`);
    return [commentMarker(context.jobId), outcomeText(result, context), '', `<sub>${details.join(' · ')}</sub>`].join('\n');
}

;// CONCATENATED MODULE: ./src/comment-target.ts
function numberField(value) {
    if (typeof value !== 'object' || value === null || !('number' in value))
        return undefined;
    return typeof value.number === 'number' && Number.isSafeInteger(value.number) && value.number > 0 ? value.number : undefined;
}
/**
 * The issue or pull request to comment on: `issue-number` if given, else the one the event is about
 * (`issues`, `issue_comment`, `pull_request`, `pull_request_target`, `pull_request_review`, ...).
 */
function resolveCommentTarget(source) {
    const [owner, repo] = source.repository.split('/');
    if (!owner || !repo)
        return { ok: false, reason: 'GITHUB_REPOSITORY is not set, so the repository is unknown' };
    if (source.issueNumber !== undefined) {
        return { ok: true, target: { owner, repo, number: source.issueNumber, kind: 'issue or pull request' } };
    }
    const issue = source.payload['issue'];
    const issueNumber = numberField(issue);
    if (issueNumber !== undefined) {
        // An issue_comment on a pull request carries the pull request as `issue`, marked by `pull_request`.
        const isPull = typeof issue === 'object' && issue !== null && 'pull_request' in issue;
        return { ok: true, target: { owner, repo, number: issueNumber, kind: isPull ? 'pull request' : 'issue' } };
    }
    const pullNumber = numberField(source.payload['pull_request']);
    if (pullNumber !== undefined)
        return { ok: true, target: { owner, repo, number: pullNumber, kind: 'pull request' } };
    return {
        ok: false,
        reason: `the "${source.eventName}" event that started this run is about no issue or pull request; set issue-number to say where to comment`
    };
}

// EXTERNAL MODULE: ./src/error-message.ts
var error_message = __webpack_require__(6587);
;// CONCATENATED MODULE: ./src/comment.ts
// Loaded only when `comment: true`, so runs without a comment never load Octokit.






/** How many times a rate-limited request is tried again before giving up. */
const RATE_LIMIT_RETRIES = 2;
/** A wait longer than this for a rate limit is not worth holding the runner for. */
const LONGEST_RATE_LIMIT_WAIT_S = 60;
/** The one Octokit of the action: GITHUB_API_URL (so GitHub Enterprise Server works), proxy, retries, throttling. */
function createOctokit(token, userAgent) {
    const retryRateLimited = (retryAfter, _options, _octokit, retryCount) => retryCount < RATE_LIMIT_RETRIES && retryAfter <= LONGEST_RATE_LIMIT_WAIT_S;
    return (0,github/* getOctokit */.Q)(token, {
        userAgent,
        throttle: { onRateLimit: retryRateLimited, onSecondaryRateLimit: retryRateLimited },
        retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 451] }
    }, dist_bundle/* retry */.L, plugin_throttling_dist_bundle/* throttling */.A);
}
async function findMarkedComment(octokit, target, marker) {
    let found;
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
        owner: target.owner,
        repo: target.repo,
        issue_number: target.number,
        per_page: 100
    });
    for await (const page of pages) {
        // Only a comment that starts with the marker: a reply quoting ours starts with "> ".
        for (const comment of page.data)
            if (comment.body?.startsWith(marker))
                found = comment.id;
    }
    return found;
}
function comment_status(error) {
    return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}
function failureWarning(error, target) {
    const where = `${target.kind} #${target.number} in ${target.owner}/${target.repo}`;
    const code = comment_status(error);
    const detail = `${code === undefined ? '' : `HTTP ${code}: `}${(0,error_message/* errorMessage */.g)(error)}`;
    if (code === 403 || code === 401) {
        const permission = target.kind === 'issue' ? 'issues: write' : target.kind === 'pull request' ? 'pull-requests: write' : 'issues: write (or pull-requests: write for a pull request)';
        return `Could not comment on ${where}: the token lacks permission (${detail}). Give the workflow or job "permissions: ${permission}", or pass a github-token that has it.`;
    }
    if (code === 404)
        return `Could not comment on ${where}: it was not found (${detail}). Check issue-number.`;
    return `Could not comment on ${where} (${detail}).`;
}
/** Creates or updates this job's comment on the triggering issue or pull request. */
async function commentOutcome(result, request) {
    const resolved = resolveCommentTarget({
        issueNumber: request.issueNumber,
        eventName: github/* context */._.eventName,
        payload: github/* context */._.payload,
        repository: process.env['GITHUB_REPOSITORY'] ?? ''
    });
    if (!resolved.ok)
        return { warning: `No comment was made: ${resolved.reason}.` };
    const { target } = resolved;
    const runUrl = `${github/* context */._.serverUrl}/${target.owner}/${target.repo}/actions/runs/${github/* context */._.runId}`;
    const commentContext = { jobId: request.jobId, timeoutMs: request.timeoutMs, runUrl, message: request.message };
    const body = renderComment(result, commentContext);
    const octokit = createOctokit(request.token, request.userAgent);
    try {
        const existing = await findMarkedComment(octokit, target, commentMarker(request.jobId));
        const issue = { owner: target.owner, repo: target.repo };
        const response = existing === undefined
            ? await octokit.rest.issues.createComment({ ...issue, issue_number: target.number, body })
            : await octokit.rest.issues.updateComment({ ...issue, comment_id: existing, body });
        return { url: response.data.html_url };
    }
    catch (error) {
        return { warning: failureWarning(error, target) };
    }
}


/***/ })

};

//# sourceMappingURL=462.index.js.map