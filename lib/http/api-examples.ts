import type { ShExample } from '@/lib/http/readme-examples';

/** The README's "Use the API" examples, for the reference page (lib/http/api-examples.test.ts keeps them equal). */
export const API_EXAMPLES: ShExample[] = [
  {
    title: 'Set the base URL and your key',
    code: 'export DOCUCHAT_URL=http://localhost:3000\nexport DOCUCHAT_KEY=dc_your_key_here',
  },
  {
    title: 'Upload a file and wait until it is indexed',
    code: 'printf \'# Release runbook\\n\\nWe deploy on Tuesdays after the smoke tests pass.\\nRoll back by redeploying the previous image tag.\\n\' > runbook.md\nDOC_ID=$(curl -fsS -X POST "$DOCUCHAT_URL/api/documents/upload" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" \\\n  -H "Content-Type: text/markdown" -H "X-File-Name: runbook.md" \\\n  --data-binary @runbook.md | jq -r .document.id)\nuntil STATUS=$(curl -fsS "$DOCUCHAT_URL/api/documents/$DOC_ID" -H "Authorization: Bearer $DOCUCHAT_KEY" |\n  jq -r .document.status) && [ "$STATUS" = INDEXED ] || [ "$STATUS" = FAILED ]; do sleep 1; done\necho "$DOC_ID $STATUS"',
  },
  {
    title:
      "Search your documents with the agent's own search tools (`mode`: `hybrid`, `keyword` or `semantic`), then open a passage",
    code: 'CHUNK_ID=$(curl -fsS -G "$DOCUCHAT_URL/api/search" --data-urlencode "q=deploy tuesdays" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" | jq -r \'.results[0].chunkId\')\ncurl -fsS "$DOCUCHAT_URL/api/chunks/$CHUNK_ID" -H "Authorization: Bearer $DOCUCHAT_KEY" |\n  jq -r \'"\\(.chunk.filename): \\(.chunk.text)"\'',
  },
  {
    title: 'Ask a question and get a cited answer (`[n]` markers, each citation with its file, page and quote)',
    code: 'ANSWER=$(curl -fsS "$DOCUCHAT_URL/api/agent/run" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -d \'{"question": "On which day do we deploy?"}\')\necho "$ANSWER" | jq -r .answer\necho "$ANSWER" | jq -r \'.citations[] | "[\\(.n)] \\(.filename): \\(.quote)"\'\nANSWER_ID=$(echo "$ANSWER" | jq -r .answerId)',
  },
  {
    title:
      "Stream the agent's trace and answer as Server-Sent Events, or as NDJSON (one `{event, data}` object per line)",
    code: 'curl -fsSN "$DOCUCHAT_URL/api/agent/stream" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -d \'{"question": "How do we roll back?"}\' | grep \'^event: \' | sort | uniq -c\ncurl -fsSN "$DOCUCHAT_URL/api/agent/stream" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -H "Accept: application/x-ndjson" \\\n  -d \'{"question": "How do we roll back?"}\' | jq -r \'select(.event == "complete") | .data.answer\'',
  },
  {
    title: 'Share the answer as a public read-only link, then revoke it (the link then answers 404)',
    code: 'SHARE=$(curl -fsS "$DOCUCHAT_URL/api/shares" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -d "{\\"answerId\\": \\"$ANSWER_ID\\"}")\nSHARE_URL=$(echo "$SHARE" | jq -r .share.url)\ncurl -s -o /dev/null -w \'shared: %{http_code}\\n\' "$SHARE_URL"\ncurl -fsS -X DELETE "$DOCUCHAT_URL/api/shares/$(echo "$SHARE" | jq -r .share.id)" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" | jq -r \'"active: \\(.share.active)"\'\ncurl -s -o /dev/null -w \'revoked: %{http_code}\\n\' "$SHARE_URL"',
  },
  {
    title:
      'Research mode: for a broader request, start a research run. When the request is open it first asks up to three clarifying questions (answer or skip them), then proposes a plan of tasks you can edit, reorder or delete from; on approval each task runs as its own bounded agent run and the report comes back in sections, each with its sources. The run keeps a research-level event log (`events`: questions asked and answered, plan proposed, edited and approved, each task started and finished, quality check and remediation, synthesis, report, cancel or failure, each with its time); the approve stream sends each new entry as a `log` event (flow, events and cost in [docs/research.md](docs/research.md))',
    code: 'RUN=$(curl -fsS "$DOCUCHAT_URL/api/research" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -d \'{"question": "Tell me about deployments"}\')\nRUN_ID=$(echo "$RUN" | jq -r .run.id)\necho "$RUN" | jq -r \'.run.clarifications[] | "\\(.id): \\(.question)"\'\nif [ "$(echo "$RUN" | jq -r .run.status)" = clarifying ]; then\n  curl -fsS "$DOCUCHAT_URL/api/research/$RUN_ID/answers" \\\n    -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n    -d \'{"skip": true}\' | jq -r \'.run.tasks[] | "\\(.id) \\(.title)"\'\nfi\ncurl -fsS -X PUT "$DOCUCHAT_URL/api/research/$RUN_ID/plan" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -d \'{"tasks": [{"title": "Deploy day", "query": "On which day do we deploy?"},\n                 {"title": "Rollback", "query": "How do we roll back?"}]}\' | jq -r \'.run.tasks[].title\'\ncurl -fsSN -X POST "$DOCUCHAT_URL/api/research/$RUN_ID/approve" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Accept: application/x-ndjson" |\n  jq -r \'select(.data.type == "task_done") | "\\(.data.taskId): \\(.data.status)"\'\ncurl -fsS "$DOCUCHAT_URL/api/research/$RUN_ID" -H "Authorization: Bearer $DOCUCHAT_KEY" > run.json\njq -r \'.run.events[] | "\\(.at) \\(.type) \\(.title // .status // "")"\' run.json\njq -r \'.run.report.sections[] | "## \\(.heading)\\n\\(.text)\\nSources: \\([.sources[].filename] | join(", "))"\' run.json',
  },
  {
    title: "Errors are JSON with a `type:surface` code; another user's ids answer exactly like ids that do not exist",
    code: 'curl -s "$DOCUCHAT_URL/api/documents/00000000-0000-4000-8000-000000000000" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" | jq -r .error.code',
  },
  {
    title:
      "Other agents can use DocuChat's own tools (`search_docs`, `search_text`, `search_semantic`, `open_citation`, `get_document_metadata`, `ask`) over MCP (Streamable HTTP) at `/api/mcp` with the same key; any MCP client works, and so does curl",
    code: 'curl -fsS "$DOCUCHAT_URL/api/mcp" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY" -H "Content-Type: application/json" \\\n  -H "Accept: application/json, text/event-stream" \\\n  -d \'{"jsonrpc": "2.0", "id": 1, "method": "tools/call",\n       "params": {"name": "search_text", "arguments": {"query": "deploy tuesdays"}}}\' |\n  jq -r \'.result.content[0].text\'',
  },
  {
    title: 'Clean up',
    code: 'curl -fsS -o /dev/null -w \'deleted: %{http_code}\\n\' -X DELETE "$DOCUCHAT_URL/api/documents/$DOC_ID" \\\n  -H "Authorization: Bearer $DOCUCHAT_KEY"',
  },
];
