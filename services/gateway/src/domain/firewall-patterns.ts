/**
 * The firewall's documented pattern set (docs/gateway.md lists them). Each pattern names the
 * attack it catches. `high` alone makes a text malicious; `medium` patterns make it suspicious,
 * and enough of them together make it malicious (see `classifyText`). Patterns run on text that
 * was already normalised: NFKC-folded, invisible characters removed, lower-cased.
 */
export type PatternSeverity = 'high' | 'medium';

export interface FirewallPattern {
  readonly id: string;
  readonly severity: PatternSeverity;
  readonly description: string;
  readonly regex: RegExp;
  /** Run on the raw text (before normalisation) — for the characters normalisation removes. */
  readonly raw?: boolean;
  /** Can only match text containing a non-ASCII character; skipped (cheaply) otherwise. */
  readonly nonAscii?: boolean;
}

export const FIREWALL_PATTERNS: readonly FirewallPattern[] = [
  // ─── Instruction override (the classic "ignore previous instructions") ───
  { id: 'ignore_previous', severity: 'high', description: 'Tells the model to ignore/forget its earlier instructions', regex: /\b(ignore|disregard|forget|skip|override|abandon)\b[^.\n]{0,40}?\b(previous|prior|above|earlier|preceding|all|any|your|system|original)\b[^.\n]{0,24}?\b(instructions?|prompts?|rules|directions|directives|guidelines|context|messages?|guidance)\b/ },
  { id: 'new_instructions', severity: 'high', description: 'Announces replacement instructions', regex: /\b(new|updated|real|actual|revised|true)\s+(system\s+)?(instructions?|directives?|orders)\s*(:|-|follow|are)/ },
  { id: 'system_prompt_override', severity: 'medium', description: 'Talks about the system prompt as something to change', regex: /\bsystem\s*(prompt|message)\b[^.\n]{0,30}\b(is now|now is|override|overridden|replace|updated|changed)\b/ },
  { id: 'role_hijack', severity: 'high', description: 'Reassigns the model a new identity', regex: /\byou are now\b|\bfrom now on,?\s+you\s+(are|will|must|shall)\b|\bact as (an? )?(unrestricted|unfiltered|jailbroken|evil)\b/ },
  { id: 'jailbreak_persona', severity: 'high', description: 'Known jailbreak personas (DAN, developer mode)', regex: /\b(do anything now|jailbreak(ed)?|developer mode (enabled|on)|dan mode|god mode)\b/ },
  { id: 'fake_chat_markup', severity: 'high', description: 'Chat-template control tokens smuggled in data', regex: /<\|?(im_start|im_end|endoftext|system|assistant)\|?>|\[\/?(system|inst)\]|<<\s*sys\s*>>/ },
  { id: 'role_prefix_line', severity: 'medium', description: 'A line that pretends to be a system/assistant turn', regex: /(^|\n)\s*(system|assistant|developer)\s*:\s*\S/ },
  { id: 'pseudo_xml_directive', severity: 'high', description: '<IMPORTANT>/<SYSTEM> blocks used in tool-poisoning attacks', regex: /<\s*(important|instructions?|system|secret|admin)\s*>/ },
  { id: 'note_to_ai', severity: 'high', description: 'Text addressed to the AI rather than the reader', regex: /\b(note|message|instructions?|attention|reminder)\s+(to|for)\s+(the\s+)?(ai|assistant|agent|model|llm|chatbot|language model)\b|\b(important|urgent|attention)\s*[:!]+\s*(ai|assistant|agent|model|llm)\b/ },
  { id: 'hide_from_user', severity: 'high', description: 'Asks the model to keep something from the user', regex: /\b(do not|don't|never|without)\s+(tell|telling|inform|informing|mention|mentioning|reveal|revealing|alert|alerting|notify|notifying)\s+(the\s+)?(user|human|operator|owner|account holder)\b/ },
  { id: 'bypass_safety', severity: 'high', description: 'Asks to disable safety, approval or confirmation', regex: /\b(bypass|disable|turn off|skip|circumvent|ignore)\b[^.\n]{0,30}\b(safety|guardrails?|filters?|restrictions|firewall|approvals?|confirmations?|2fa|verification)\b/ },
  { id: 'without_confirmation', severity: 'medium', description: 'Urges action without asking the user', regex: /\bwithout\s+(asking|any confirmation|confirmation|approval|confirming|user consent|consent|review)\b|\bimmediately,? before the user\b/ },
  { id: 'roleplay_pretend', severity: 'medium', description: 'Role-play framing used to escape rules', regex: /\b(pretend|imagine)\s+(you are|to be|that you)\b|\blet'?s play a game\b/ },
  { id: 'prompt_leak', severity: 'high', description: 'Asks for the system prompt or hidden instructions', regex: /\b(repeat|print|show|output|reveal|display|leak)\b[^.\n]{0,30}\b(your|the)\s+(system\s+|hidden\s+|initial\s+)?(prompt|instructions)\b/ },
  { id: 'context_boundary', severity: 'medium', description: 'Fake end-of-data markers followed by instructions', regex: /(end of (document|context|input|data|results?)|-{3,}\s*end\s*-{3,})[^\n]{0,40}\b(now|new|instructions?|assistant)\b/ },
  // ─── Tool and money abuse ───
  { id: 'tool_call_directive', severity: 'medium', description: 'Instructs the model to call a tool or function', regex: /\b(call|invoke|run|execute|trigger|use)\s+(the\s+)?(tool|function|endpoint|command)\b|\b(call|invoke|execute)\s+[a-z]+_[a-z_]+\s*\(/ },
  { id: 'payment_tool_named', severity: 'medium', description: 'Names a payment-proposal tool inside data', regex: /\b(pay|paylive)_[a-z_]*propose|\bpropose_(send|swap|accept|complete)[a-z_]*\b|\binvoke_stateful_tool\b/ },
  { id: 'funds_directive', severity: 'medium', description: 'Tells the reader to move funds somewhere', regex: /\b(send|transfer|wire|move|withdraw|bridge)\s+(all|the|your|every|\d[\d,.]*)\s+([a-z]+\s+){0,3}(funds|usdc|usdt|dai|eth|btc|tokens?|money|balance|assets)\b[^.\n]{0,40}\b(to|into)\b/ },
  { id: 'address_redirect', severity: 'medium', description: 'Directs funds to a literal address', regex: /\b(send|transfer|withdraw|pay)\b[^.\n]{0,60}\b0x[a-f0-9]{40}\b/ },
  { id: 'secret_exfiltration', severity: 'high', description: 'Asks to reveal or send credentials', regex: /\b(reveal|print|output|send|leak|share|exfiltrate|post|paste|include)\b[^.\n]{0,40}\b(api[_ -]?keys?|secrets?|passwords?|credentials?|private keys?|seed phrases?|mnemonics?|bearer tokens?|access tokens?|session tokens?)\b/ },
  { id: 'url_exfiltration', severity: 'medium', description: 'Asks to send data to a URL', regex: /\b(send|post|upload|forward|submit)\b[^.\n]{0,40}\bhttps?:\/\/\S+/ },
  { id: 'markdown_image_exfil', severity: 'high', description: 'Markdown image whose URL carries query data (zero-click exfiltration)', regex: /!\[[^\]]*\]\(\s*https?:\/\/[^)\s]*\?[^)\s]*=/ },
  { id: 'sensitive_file_read', severity: 'high', description: 'Asks to read local secrets (~/.ssh, .env, mcp.json)', regex: /\b(read|cat|open|load|send)\b[^.\n]{0,30}(~\/\.ssh|id_rsa|\.env\b|mcp\.json|\/etc\/passwd|\.aws\/credentials)/ },
  { id: 'false_authorization', severity: 'medium', description: 'Claims the user already approved something', regex: /\b(user|owner|admin|account holder)\s+(has\s+)?(already\s+)?(approved|authorized|authorised|confirmed|consented)\b/ },
  // ─── Hiding ───
  { id: 'html_comment_directive', severity: 'high', description: 'Instructions hidden in an HTML comment', regex: /<!--[\s\S]{0,400}?\b(ignore|instructions?|assistant|system|must|call|send)\b[\s\S]{0,400}?-->/ },
  { id: 'css_hidden_text', severity: 'medium', description: 'Text hidden with CSS', regex: /(display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(px)?\b|color\s*:\s*(white|#fff(fff)?)\b)/ },
  { id: 'zero_width_characters', severity: 'medium', description: 'Zero-width characters (hidden text, token smuggling)', regex: /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD]/, raw: true, nonAscii: true },
  { id: 'bidi_controls', severity: 'medium', description: 'Bidirectional overrides that reorder what a person sees (Trojan Source)', regex: /[\u202A-\u202E\u2066-\u2069]/, raw: true, nonAscii: true },
  { id: 'unicode_tag_smuggling', severity: 'high', description: 'Unicode tag characters carrying invisible ASCII (ASCII smuggling)', regex: /[\u{E0000}-\u{E007F}]/u, raw: true, nonAscii: true },
  { id: 'mixed_script_homoglyphs', severity: 'medium', description: 'Cyrillic/Greek letters inside Latin words (homoglyph evasion)', regex: /[a-z][\u0370-\u03FF\u0400-\u04FF][a-z]|[\u0400-\u04FF][a-z][\u0400-\u04FF]/, raw: false, nonAscii: true },
  // ─── Multilingual overrides ───
  { id: 'ignore_previous_es', severity: 'high', description: 'Spanish: ignore previous instructions', regex: /\b(ignora|ignore|ignorar|olvida)\s+(todas\s+)?(las\s+)?(instrucciones|indicaciones)\s+(anteriores|previas)/ },
  { id: 'ignore_previous_fr', severity: 'high', description: 'French: ignore previous instructions', regex: /\b(ignore|ignorez|ignorer|oublie|oubliez)\s+(toutes\s+)?(les\s+)?(instructions|consignes)\s+(precedentes|précédentes|anterieures|antérieures)/ },
  { id: 'ignore_previous_de', severity: 'high', description: 'German: ignore previous instructions', regex: /\b(ignoriere|ignorieren|vergiss|vergessen)\s+(sie\s+)?(alle\s+)?(vorherigen|bisherigen|obigen|vorigen)\s+(anweisungen|instruktionen|befehle)/ },
  { id: 'ignore_previous_it_pt', severity: 'high', description: 'Italian/Portuguese: ignore previous instructions', regex: /\b(ignora|ignore|ignorar|esqueça|esqueca)\s+(tutte\s+|todas\s+)?(le\s+|as\s+)?(istruzioni|instruções|instrucoes)\s+(precedenti|anteriori|anteriores)/ },
  { id: 'ignore_previous_ru', severity: 'high', description: 'Russian: ignore previous instructions', regex: /(игнорир\S*|забудь\S*)\s+(все\s+)?(предыдущие|прошлые|прежние)\s+(инструкции|указания|команды)/, nonAscii: true },
  { id: 'ignore_previous_zh', severity: 'high', description: 'Chinese: ignore previous instructions', regex: /(忽略|无视|忘记)(之前|以上|先前|所有|前面)[\s\S]{0,6}(指令|指示|说明|提示)/, nonAscii: true },
  { id: 'ignore_previous_ja', severity: 'high', description: 'Japanese: ignore previous instructions', regex: /(前の|以前の|上記の|これまでの)(指示|命令|指令)を?(無視|忘れ)/, nonAscii: true },
  { id: 'ignore_previous_ko', severity: 'high', description: 'Korean: ignore previous instructions', regex: /(이전|위의|앞의)\s*(지시|명령|지침)[을를]?\s*(무시|잊)/, nonAscii: true },
];

/** Marks an `encoded_instruction` finding: a decoded base64/URL/HTML-entity payload matched a high pattern. */
export const ENCODED_PATTERN: FirewallPattern = {
  id: 'encoded_instruction',
  severity: 'high',
  description: 'An instruction hidden in base64, URL or HTML-entity encoding',
  regex: /$^/,
};
