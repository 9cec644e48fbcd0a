/**
 * What a piece of code does, as facts: where data comes from (sources), where it goes (sinks) and what turns it into
 * something else on the way (transforms). Each fact is one record: its name, its kind and the patterns that find it
 * in a normalised statement (flow.ts: lower case, continuations joined, literal strings and variables resolved, home
 * spelled `~`). The judgements (judgements.ts) are written over these names, never over spellings.
 */

export type FactKind = 'source' | 'sink' | 'transform' | 'trait';

export interface FactRecord {
  name: string;
  kind: FactKind;
  patterns: readonly RegExp[];
}

/*
 * A gap between two words is read up to the first word's next repeat (`\bxclip\b(?:(?!\bxclip\b)[^\n])*-o\b`, not
 * `\bxclip\b[^\n]*-o\b`): it matches the same lines, but a line of repeats is read once instead of once per repeat.
 */

/** Credential stores, by any of their usual file or folder names (globs like `.ss?` included). */
const CREDENTIAL_PATHS = [
  /(?:^|[^\w])\.s(?:sh|s\?|\?h|s\*|\*h|\[s\]h)(?:[/\\"'\s*]|$)/,
  /\bid_(?:rsa|ed25519|ecdsa|dsa|\*|\?)/,
  /["']id_["']/,
  /\.aws(?:[/\\"'\s]|$)|aws[/\\]credentials|\.aws_credentials/,
  /\.kube\/config|\.kube(?:["'\s]|$)/,
  /\.docker\/config\.json/,
  /\.(?:netrc|npmrc|pypirc|git-credentials|pgpass|my\.cnf)\b/,
  /\.gnupg\b|\.password-store\b/,
  /\.(?:bash|zsh|python|psql|mysql|node_repl|sh)_history\b|\bconsolehost_history\b/,
  /\.config\/(?:gh\/hosts|gcloud|hub\b|op\b)|application_default_credentials|\.azure\/|accesstokens\.json/,
  /\.claude\/\.credentials|\.codex\/auth\.json|\.config\/(?:github-copilot|openai)|\.cursor\/(?:(?!\.cursor\/).)*token/,
  /\blogin data\b|\bcookies\.sqlite\b|(?:default|profile \d+|network)[/\\]cookies\b|\blogins\.json\b|\bkey[34]\.db\b|\blocal state\b|\bweb data\b/,
  /\bwallet\.dat\b|(?:metamask|exodus|electrum|atomic)[/\\]|nkbihfbeogaeaoehlefnkodbefgpgknn|\.ethereum[/\\]keystore/,
  /login\.keychain|\/library\/keychains|dump-keychain|find-(?:generic|internet)-password(?![^\n]*\s-[sal]\s)|\/etc\/shadow\b/,
  // A project's .env read out whole or uploaded as a file (reading one's own settings from it with `source` or a loader
  // is not).
  /(?:\bcat\s+|<\s*|@|\s(?:-t|--upload-file|--post-file=?|--body-file=?)\s*|readfilesync\(\s*|readfile\(\s*|open\(\s*|read_text\(\s*|\btar\b(?:(?!\btar\b)[^\n])*\s|\bzip\b(?:(?!\bzip\b)[^\n])*\s)["']?[\w./~-]*\.env\b(?!\.(?:example|sample|template))/,
  // A secret manager's item printed, and data-science hubs' token files.
  /\bop\s+read\b/,
  // A brace glob naming a credential folder: `.{aws,azure,kube}`.
  /\.\{(?:aws|ssh|kube|azure|gnupg|docker|gcloud)[,}]|,(?:aws|ssh|kube|azure|gnupg|docker|gcloud)[,}]/,
  /\bkaggle\.json\b|huggingface\/token\b|\.huggingface\/token\b|\.config\/gh\/hosts\.ya?ml\b|\.config\/hub\b|\.terraform\.d\/credentials/,
];

/**
 * Credential stores as the folder and the file a path is joined from, when the pieces sit apart (two lists walked by
 * nested loops, a table keyed by folder, `'.' + name`): each piece of a literal, split at `/`, is compared whole.
 */
export const CREDENTIAL_PIECES: readonly (readonly [RegExp, RegExp])[] = [
  [/^\.?claude$/, /^\.credentials\.json$/],
  [/^\.?codex$/, /^auth\.json$/],
  [/^github-copilot$/, /^(?:hosts|apps)\.json$/],
  [/^\.?ssh$/, /^id_(?:rsa|ed25519|ecdsa|dsa)$/],
  [/^\.?aws$/, /^credentials$/],
  [/^\.?kube$/, /^config$/],
  [/^\.?docker$/, /^config\.json$/],
  [/^gh$/, /^hosts\.ya?ml$/],
  [/^gcloud$/, /^(?:application_default_credentials\.json|credentials\.db|access_tokens\.db)$/],
  [/^\.?azure$/, /^(?:accesstokens\.json|msal_token_cache\.json)$/],
];

/** The environment as a whole: every variable at once, not one named variable. */
const ENV_BULK = [
  /\/proc\/(?:self|\d+|\$\$|\*|\$\{?[a-z_]\w{0,30}\}?)\/environ\b/,
  /\bexport\s+-p\b|\bdeclare\s+-[a-z]*x\b|\btypeset\s+-x\b/,
  /(?:^|[|;&`(]|\$\()[ \t]*(?:printenv|env|set)[ \t]*(?:[|>)`;&]|$)|["'][ \t]*(?:printenv|env|set)[ \t]*[|>]/,
  /\[\s*["'](?:printenv|env|set)["']\s*\]/,
  /\b(?:dict|json\.dumps|str|repr|list|sorted|pickle\.dumps|yaml\.dump)\(\s*(?:os\.)?environ\b|\bos\.environ\.(?:copy|items|keys|values)\(|\{\s*\*\*os\.environ\b|\b(?:data|json|params|body|payload)\s*=\s*os\.environ\b|\bfor\s+\w+(?:\s*,\s*\w+)?\s+in\s+os\.environ\b/,
  /\bos\.getenv\(\s*\)|\bgetenv\(\s*\)/,
  /\bjson\.stringify\((?:(?!\bjson\.stringify\()[^;\n])*\bprocess\.env\b(?!\s*(?:\.|\[|\?\.))|\bjson\.dumps\((?:(?!\bjson\.dumps\()[^;\n])*\bos\.environ\b(?!\s*(?:\[|\.get\b))|\bobject\.(?:entries|keys|values|assign)\((?:(?!\bobject\.(?:entries|keys|values|assign)\()[^)])*process\.env\b|\burlsearchparams\(\s*process\.env\b|\b(?:body|data|json|params|payload)\s*[:=]\s*process\.env\b|\bin\s+process\.env\b|\benv\.to_h\b/,
  /\bget-childitem\s+env:|\bgci\s+env:|\bls\s+env:|\bdir\s+env:|getenvironmentvariables\(\s*\)/,
  // Perl's %ENV, IPython's %env, Go's os.Environ(), Ruby's ENV as a whole, PowerShell's env: drive, a CI run's secrets.
  /\{\s*\.\.\.process\.env\s*[,}]|(?<![\w%])%env\b(?!%)|\bos\.environ\(\)|\benv\.(?:to_a|to_hash|inspect|each|map|keys|values|select|reject)\b|\bget-item\s+env:|\btojson\(\s*secrets\s*\)/,
];

/** Sending anything over the network, by any tool or library. */
const NETWORK_SEND = [
  /\b(?:curl|wget|aria2c|httpie|xh)\b/,
  /\b(?:nc|ncat|netcat|socat|telnet|scp|sftp|ftp|tftp)\s/,
  /\brsync\b(?:(?!\brsync\b)[^\n])*\s[\w.@-]+:/,
  /\/dev\/(?:tcp|udp)\//,
  /\brequests\.(?:post|put|patch|get|request|session)\b|\bhttpx\.|\baiohttp\b|\burllib\b|\burlopen\b|\bhttp\.client\b|\bhttplib/,
  /\bsocket\.(?:socket|create_connection)\b|\.sendall\(|\bsmtplib\b|\bftplib\b|\bparamiko\b/,
  /\bfetch\(|\baxios\b|\bhttps?\.(?:request|get)\(|\bxmlhttprequest\b|\bsendbeacon\b|\bnew websocket\b|\bnet\.(?:connect|createconnection|socket)\b|\bgot\(|\bundici\b|\bneedle\b|\bsuperagent\b/,
  /\binvoke-(?:webrequest|restmethod)\b|(?:^|[\s(|;])(?:iwr|irm)\s|\bnet\.webclient\b|\bwebclient\b|\bupload(?:string|file|data)\b|\btcpclient\b|\bhttpclient\b/,
  /(?<![\w-])(?:nslookup|dig|host)\s(?:\s*\n)?(?:(?!\b(?:nslookup|dig|host)\s)[^\n])*\$|\bresolve-dnsname\b/,
  /\bgh\s+gist\s+create\b|\baws\s+s3\s+cp\b|\bgsutil\s+cp\b|\brclone\s+copy\b/,
  /discord(?:app)?\.com\/api\/webhooks|api\.telegram\.org\/bot|hooks\.slack\.com\/services/,
  // Other languages' clients: Go, Ruby, Perl, PHP, Python's asyncio, Node's tls, openssl, gawk's network files.
  /\bhttp\.(?:post|postform|newrequest)\(|\bnet::http\b|\bpost_form\b|\blwp::|->(?:post|put|request)\(|\bhttp::tiny\b|\bio::socket::inet\b|\bfsockopen\(|\bcurl_exec\(|\bfile_get_contents\(\s*["']https?:|\basyncio\.open_connection\b|\btls\.connect\(|\bs_client\s|\/inet\/(?:tcp|udp)\/|\btcpsocket\.(?:new|open)\b|\bsmtp\.(?:start|new)\b|\bsend-mailmessage\b/,
];

/** Fetching from the network (what runs when it is executed). */
const NETWORK_FETCH = [
  /\b(?:curl|wget)\b/,
  /\burlopen\b|\brequests\.get\b|\bhttpx\.get\b|\bfetch\(|\bhttps?\.get\(|\binvoke-(?:webrequest|restmethod)\b|(?:^|[\s(|;])(?:iwr|irm)\s|\bdownload(?:string|file|data)\b/,
  /\bnet::http\.get\b|\bopen-uri\b|\bhttp\.get\(|\burl\.openstream\(|\brequire\(\s*["'](?:node:)?https?["']\s*\)\.(?:get|request)\(/,
];

/** Running text as code. */
const DYNAMIC_EXEC = [
  /(?:^|[^\w.])(?:exec|eval|compile)\s*\(/,
  /\bnew function\s*\(|(?:^|[^\w.])function\s*\((?:(?!(?:^|[^\w.])function\s*\()[^)])*\)\s*\(/,
  /\bvm\.run(?:inthiscontext|innewcontext|incontext)\b|\bvm\.script\b/,
  /\binvoke-expression\b|(?:^|[\s(|;])iex\b|\[scriptblock\]::create/,
  /(?:^|[\s;&`])eval\s+["'$`]|\|\s*(?:ba|z|da|k)?sh\b|\|\s*(?:python[0-9.]*|node|perl|ruby|pwsh|powershell)\s*(?:-\s*)?(?:$|[;&|)\n])|\bsource\s+<\(/,
  // A shell handed a variable's text as its command (`bash -c "$c"`).
  /\b(?:ba|z|da|k)?sh\s+-c\s+["']?\$/,
  /\bgetattr\(\s*(?:builtins|__builtins__)\b|\b__import__\(|\bglobals\(\)\s*\[|\bimportlib\.import_module\(/,
  /-(?:encodedcommand|enc|ec)\s+[a-z0-9+/=]{20,}/,
  /\beval\s+(?:pack|unpack|decode_base64|uncompress|qx)\b|\bassert\(\s*base64_decode\b/,
];

/** Decoding a hidden payload. */
const DECODED = [
  /\bb(?:64|32|16|85)decode\b|\ba85decode\b|\bdecodebytes\b|\bbase64\s+(?:-d|--decode|-D)\b|\batob\(|\bfrombase64string\b/,
  /\bbytes\.fromhex\b|\bunhexlify\b|\bcodecs\.decode\b|\bzlib\.decompress\b|\bmarshal\.loads\b|\bxxd\s+-r\b/,
  /\bbuffer\.from\((?:(?!\bbuffer\.from\()[^)])*,\s*["'](?:base64|hex)["']|\.decode\(\s*["'](?:base64|hex|rot13)/,
  /-(?:encodedcommand|enc|ec)\s+[a-z0-9+/=]{20,}/,
  /\bpack\(\s*["']h\*|\bdecode_base64\(|\bbase64_decode\(|\bgzinflate\(|\bstr_rot13\(/,
];

/** Running a program or a shell command. */
const PROCESS_EXEC = [
  /\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)\(|\bsubprocess\.|\bchild_process\.|\bexecsync\(|\bstart-process\b|\bruntime\.getruntime\(\)\.exec/,
  // Named as a string, or a module and a member both named by variables: `cp['execSync'](…)`, `getattr(os, "system")(…)`,
  // `require(m)[f](…)`.
  /\[\s*["'](?:exec|execsync|spawn|spawnsync|execfile|execfilesync)["']\s*\]\s*\(|\bgetattr\([^()\n]{1,60},\s*["'](?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)["']\s*\)\s*\(|\brequire\(\s*[a-z_$][\w$]*\s*\)\s*\[\s*[a-z_$][\w$]*\s*\]\s*\(/,
];

const SOCKET = [
  /\/dev\/(?:tcp|udp)\//,
  /<&\s*(?:[3-9]|\d{2,3})\b/,
  // Whatever the program's name: a shell handed to it with `-e`, then a host and a port (netcat's shape).
  /\s-[a-z]*e\s+["']?(?:\/usr)?\/bin\/(?:ba|z|da|k)?sh["']?\s+["']?[\w.-]+["']?\s+\d{2,5}\b/,
  /\b(?:nc|ncat|netcat)\s+(?:-[a-z]+\s+)*(?:[\w.-]+|\$\{?\w+\}?)\s+\d{1,5}\b|\b(?:nc|ncat|netcat)\s+-[a-z]*[elc]\b|\bncat\b(?:(?!\bncat\b)[^\n])*\s--(?:sh-|lua-)?exec\b/,
  /\bsocat\s/,
  /\bsocket\.socket\((?![^)]*?(?:af_unix|\bsocket\.socket\())|\bsocket\(\s*socket\.|\bsocket\.create_connection\b|\bnet\.(?:connect|createconnection|socket)\b|\bnew\s+net\.socket\b|\btcpclient\b|\btcpsocket\b/,
  /\bio::socket::inet\b|\bfsockopen\(|\basyncio\.open_connection\b|\btls\.connect\(|\bs_client\s|\/inet\/(?:tcp|udp)\/|\btcpsocket\.(?:new|open)\b/,
];

/** A shell or interpreter handed a connection, or told to run what arrives. */
const SHELL_EXEC = [
  /\b(?:ba|z|da|k)?sh\s+-i\b|\/bin\/(?:ba|z|da)?sh\b|\bcmd\.exe\b|\bcmd\s+\/[ck]\b|\bpowershell\b|\bpwsh\b/,
  /\s-(?:e|c)\s+["']?(?:\/bin\/)?(?:ba|z|da)?sh\b|\s(?:-e|--(?:sh-)?exec)\s+["']?\$\{?shell\b|\bexec:["']?(?:\/bin\/)?(?:ba|z|da)?sh|\bexec\s+\d*<>/,
  /\bpty\.spawn\b|\bsubprocess\.(?:call|popen|run)\b|\bchild_process\b|\bspawn\(|\bexecsync\b|\binvoke-expression\b|(?:^|[\s(|;])iex\b/,
  /\beval\s*[("'$`]|\bwhile\s+read\b(?:(?!\bwhile\s+read\b)[^\n])*;(?:[^\S\n]*do(?:(?!;[^\S\n]*do)[^\n])*|\s*\n[^\S\n]*do[^\n]*)\$/,
  /0>&1|>&\s*\/dev\/tcp|<&\s*\d|mkfifo/,
  /\bio\.popen\b|\bproc_open\(|\bshell_exec\(|\bpassthru\(|\bcreate_subprocess_(?:shell|exec)\b|\|&?\s*getline\b|(?<![\w.])(?:exec|system|popen)\(/,
  // Ruby's backquotes and `%x` around what arrives.
  /`[^`\n]{0,40}#\{|%x[({[]/,
];

const KEYBOARD_HOOK = [
  /\bpynput\b|\bkeyboard\.(?:on_press|on_release|hook|read_key|record|add_hotkey)\b|\bgetasynckeystate\b|\bsetwindowshookex/,
  /\bxinput\s+(?:test|--test)\b|\biohook\b|\buiohook\b|\bevdev\b|\bcgeventtapcreate\b|\bkeylogger\b|\bglobal-keyboard-listener\b/,
  /\bnode-global-key-listener\b|\bgetkeystate\b|\brdev::listen\b|\/dev\/input\/(?:event|by-(?:id|path)\/)/,
];

const CLIPBOARD_READ = [
  /\bpyperclip\.(?:paste|waitfornewpaste|waitforpaste)\b|\bclipboardy\.read|\bpbpaste\b|\bxclip\b(?:(?!\bxclip\b)[^\n])*-o\b|\bxsel\b(?:(?!\bxsel\b)[^\n])*(?:-o|--output)\b|\bwl-paste\b/,
  /\bget-clipboard\b|\bclipboard\.readtext\b|\bgetclipboarddata\b|\bclipboard_get\b|\bclipboard\.gettext\b|\bwin32clipboard\b|\bclipboard\]::get(?:text|data)\b/,
];

const CLIPBOARD_WRITE = [
  /\bpyperclip\.copy\b|\bclipboardy\.write|\bpbcopy\b|\bxclip\b(?:(?!\bxclip\b)[^\n])*-(?:selection|i)\b|\bwl-copy\b|\bset-clipboard\b|\bclipboard\.writetext\b|\bsetclipboarddata\b|\bclipboard\.settext\b|\bclipboard_append\(|\bsetclipboardtext\b|\bclipboard\]::set(?:text|dataobject)\b/,
];

/** A crypto wallet address, or a pattern for one. */
const WALLET = [
  /0x\[?[0-9a-f]{40}|0x\[a-f(?:a-f)?0-9\]\{40\}|\bbc1[a-z0-9]{8}|\[13\]\[a-km-z|\bwallet\b|\b(?:btc|eth|xmr|usdt)_?addr/,
  /\b(?:bitcoin|ethereum|solana|tron|trx|monero|litecoin|dogecoin|usdt|crypto)\b|\bbase58\b|\[1-9a-hj-np-za-km-z\]/,
];

/** Home or the root, as a whole: a delete of one of these takes everything. */
const DELETE_ALL = [
  /(?:^|\n|[;&|({]\s*|\$\(\s*|\b(?:then|do|else|sudo|exec|xargs|command|eval)\s+|(?:-c[ \t]+|\b(?:eval|exec|execsync|system|popen|spawn|call|run|check_output|check_call|shell_exec)(?:\([ \t]*|[ \t]+))["'`]\s*)rm\s+(?:-[a-z-]*\s+)*(?:-[a-qs-z]*r[a-z]*|--recursive)\b(?![a-z-]*(?:\s+-[a-z-]*)*?\s+(?:-[a-qs-z]*r[a-z]*|--recursive)\b)(?:(?!(?:^|\n|[;&|({][^\S\n]*|\$\([^\S\n]*|\b(?:then|do|else|sudo|exec|xargs|command|eval)[^\S\n]+|["'`][^\S\n]*)rm[^\S\n]+(?:-[a-z-]*[^\S\n]+)*(?:-[a-qs-z]*r[a-z]*|--recursive)\b)[^\n;|&])*?\s["']?(?:~|\/)\/?["']?(?:\*|\.\*)?["']?(?:\s|$|;|&|\||\)|,)/,
  /\brmtree\(\s*(?:path\s*=\s*)?["']?(?:~|\/)["']?\s*[,)]|\brm(?:sync)?\(\s*["'`]?~["'`]?\s*,\s*\{(?:(?!\brm(?:sync)?\(\s*["'`]?~["'`]?\s*,\s*\{)[^}])*recursive|\brimraf(?:\.sync)?\(\s*["'`]?~/,
  /\bremove-item\b(?:(?!\bremove-item\b)[^\n])*-recurse(?:(?!-recurse)[^\n])*\s["']?~["']?(?:\s|$)|\brd\s+\/s\s+\/q\s+["']?(?:~|c:\\)/,
  // Every entry of home listed and piped into a recursive delete.
  /\b(?:get-childitem|gci|ls|dir)\s+(?:-(?:literal)?path\s+)?["']?~["']?(?:\s+-\w+)*\s*\|\s*(?:remove-item|ri|del)\b[^\n]*-recurse\b/,
  /\bremove-item\s+(?:-(?:literal)?path\s+)?["']?~[/\\]?["']?\s(?:(?!\bremove-item\b)[^\n])*-recurse\b/,
  /\b(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|removeall|rmtree|rmdirsync|rmsync|rimraf)\(\s*["'`]?(?:~|\/)["'`]?\s*[,)]/,
  /\bfind\s+["']?(?:~|\/)["']?\s(?:(?!\bfind\s+["']?(?:~|\/)["']?\s)[^\n])*(?:-delete\b|-exec\s+rm\b)/,
  /\bmkfs(?:\.\w+)?\s+\/dev\/|\bdd\s+if=\/dev\/(?:zero|random|urandom)\s+of=\/dev\/[sh]d/,
];

/**
 * Files a shell, a terminal multiplexer or an editor runs by itself at every start, as named after `~/.`. A shell's
 * name put before `rc` by any expansion (`~/.${sh}rc` in a loop over shells, the name cut from `$SHELL`,
 * `~/.$(basename "$SHELL")rc`) names its start-up file too.
 */
const STARTUP_FILES = String.raw`(?:bashrc|zshrc|profile|bash_profile|bash_login|bash_logout|zprofile|zshenv|zlogin|zlogout|kshrc|cshrc|tcshrc|xprofile|xinitrc|xsessionrc|bash_completion|tmux\.conf|vimrc|\$(?:[a-z_]\w{0,30}|\{[^{}\n]{1,60}\}|\([^()\n]{0,60}\))rc|\x60[^\x60\n]{1,60}\x60rc)\b`;
/**
 * Folders whose every file a shell or an interpreter runs at its start (completions, `rc.d` and `profile.d` folders,
 * fish's, oh-my-zsh's, zsh's function path, Python's site hooks), and SSH's login script.
 */
const STARTUP_FOLDERS = String.raw`(?:bash_completion\.d|bash-completion\/completions|\.bashrc\.d|\.zshrc\.d|\/profile\.d|\.config\/fish\/(?:conf\.d|completions|functions)|\.oh-my-zsh\/custom|\.zfunc|(?:site|dist)-packages\/[^\s"'\/]{1,80}\.pth)\b|\b(?:site|user)customize\.py\b|\.ssh\/rc\b|config\.fish\b`;
/** A start-up file or a file in a start-up folder, named anywhere in a statement. */
export const STARTUP_PLACE = String.raw`\.${STARTUP_FILES}|${STARTUP_FOLDERS}`;

/** Writing where a program starts by itself: shell start-up files, cron, launch agents, services, SSH's keys. */
const STARTUP_WRITE = [
  // Written, appended or teed to: a download saved with `-o` is a file like any other until something runs it.
  new RegExp(
    String.raw`(?:>>?|\btee\b|\bappendfile(?:sync)?\()(?:(?!>|\btee\b|\bappendfile(?:sync)?\()[^\n])*(?:${STARTUP_PLACE})|config\.fish\b`,
  ),
  /\bopen\((?:(?!\bopen\()[^)])*["']a["'](?:(?!["']a["'])[^)\n])*(?:\)(?:(?!\bopen\((?:(?!\bopen\(|\.(?:bashrc|zshrc|profile|bash_profile|bash_login|zprofile|zshenv|zlogin|kshrc)\b)[^)])*["']a["'])[^\n])*)?\.(?:bashrc|zshrc|profile|bash_profile|bash_login|zprofile|zshenv|zlogin|kshrc)\b/,
  /\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv)\b(?:(?!\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv)\b)[^\n])*(?:,\s*(?:mode\s*=\s*)?["']a\+?[bt]?["']|appendfile|>>|\.open\(\s*["']a)/,
  /\|\s*crontab\b|\bcrontab\s+(?!-l\b|-e\b)[^\s|;]+|\/etc\/cron|\/var\/spool\/cron/,
  /\b(?:cp|mv|install|ln|tee|cat\s*>|write|copy|copyfile|writefile(?:sync)?|open)\b(?:(?!\b(?:cp|mv|install|ln|tee|cat\s*>|write|copy|copyfile|writefile(?:sync)?|open)\b)[^\n])*\blaunch(?:agents|daemons)\b|>\s*["']?[^\s"'>]*launch(?:agents|daemons)\/|\blaunchctl\s+(?:load|bootstrap)\b/,
  /\bsystemctl\s+(?:--user\s+)?enable\b|>\s*["']?[^\s"'>]*(?:\.config\/systemd\/user|\/etc\/systemd\/system)|\b(?:cp|mv|tee|install|writefile(?:sync)?|open)\b(?:(?!\b(?:cp|mv|tee|install|writefile(?:sync)?|open)\b)[^\n])*(?:\.config\/systemd\/user|\/etc\/systemd\/system)/,
  /authorized_keys/,
  /\.config\/autostart|currentversion\\\\?run\b|\bschtasks\s+\/create\b|\bregister-scheduledtask\b|(?:>>?\s*|add-content\s+(?:-path\s+)?|out-file\s(?:\s*\n)?(?:(?!out-file\s)[^\n])*)\$profile\b/,
  /\.config\/fish\/(?:conf\.d|config\.fish|functions)\b|\bcore\.hookspath\b|\/hooks\/(?:pre|post)-(?:commit|checkout|merge|push|rebase|receive|applypatch)\b/,
];

/**
 * Tokens printed by the CLIs that hold them: sent to the vendor's own API they authenticate (judgements.ts reads them
 * as a credential store only where the code names no host of that vendor).
 */
const CLI_TOKEN = [
  /\bgcloud\s+auth\s+(?:print-access-token|print-identity-token|application-default\s+print-access-token)\b|\baz\s+account\s+get-access-token\b|\bgh\s+auth\s+token\b|\baws\s+(?:configure\s+get\s+aws_secret_access_key|sts\s+get-session-token|ecr\s+get-login-password)\b|\bheroku\s+auth:token\b/,
];

/** Each CLI that prints a token, and the hosts of the API the token is for. */
export const CLI_VENDOR: readonly [RegExp, RegExp][] = [
  [/\bgh\s+auth\s+token\b/, /\b(?:api\.)?github\.com\b|\bgithubusercontent\.com\b|\bgithub_api_url\b/],
  [/\bgcloud\s+auth\b/, /\bgoogleapis\.com\b|\bgoogle\.com\b/],
  [/\baz\s+account\b/, /\bazure\.com\b|\bmicrosoft\.com\b|\bwindows\.net\b|\bazure\.net\b/],
  [/\baws\s/, /\bamazonaws\.com\b/],
  [/\bheroku\s+auth/, /\bheroku\.com\b/],
];

export const FACT_RECORDS: readonly FactRecord[] = [
  { name: 'credential-store', kind: 'source', patterns: CREDENTIAL_PATHS },
  { name: 'cli-token', kind: 'source', patterns: CLI_TOKEN },
  { name: 'environment', kind: 'source', patterns: ENV_BULK },
  { name: 'keyboard', kind: 'source', patterns: KEYBOARD_HOOK },
  { name: 'clipboard-read', kind: 'source', patterns: CLIPBOARD_READ },
  { name: 'network-send', kind: 'sink', patterns: NETWORK_SEND },
  { name: 'network-fetch', kind: 'source', patterns: NETWORK_FETCH },
  { name: 'dynamic-exec', kind: 'sink', patterns: DYNAMIC_EXEC },
  { name: 'startup-write', kind: 'sink', patterns: STARTUP_WRITE },
  { name: 'clipboard-write', kind: 'sink', patterns: CLIPBOARD_WRITE },
  { name: 'delete-all', kind: 'sink', patterns: DELETE_ALL },
  { name: 'decoded', kind: 'transform', patterns: DECODED },
  { name: 'process-exec', kind: 'sink', patterns: PROCESS_EXEC },
  { name: 'socket', kind: 'trait', patterns: SOCKET },
  { name: 'shell-exec', kind: 'trait', patterns: SHELL_EXEC },
  { name: 'wallet', kind: 'trait', patterns: WALLET },
  { name: 'authorized-keys', kind: 'sink', patterns: [/authorized_keys2?\b/] },
  {
    name: 'ssh-key',
    kind: 'trait',
    patterns: [/\bssh-(?:rsa|ed25519|dss) aaaa|\becdsa-sha2-nistp\d+ aaaa|\bsk-ssh-ed25519@openssh\.com aaaa/],
  },
];

export type FactName = (typeof FACT_RECORDS)[number]['name'];

/** Writing or appending to a file, in any of the ways the languages spell it. */
export const FILE_WRITE =
  /\.open\(\s*(?:mode\s*=\s*)?["'][wa]|\bopen\((?:(?!\bopen\()[^)\n])*,[ \t]*(?:mode[ \t]*=[ \t]*)?["'][wa]\b|\bopen\((?:(?!\bopen\()[^\n]){0,200}?,[ \t]*(?:mode[ \t]*=[ \t]*)?["'][wa][+bt]?["']|\.write_text\(|\bwrite(?:file|filesync)\(|\bappendfile(?:sync)?\(|(?:^|[^<>&\d])>{1,2}\s*["']?[~/.$\w]|\b(?:add|set)-content\b|\bout-file\b|\bcopyfile\(|\bshutil\.copy|\b(?:cp|mv|tee|install)\s|\bcreatewritestream\(|\bo_append\b|\bsed\s+(?:-[a-z]+\s+)*-i|\bperl\s+-[a-z]*i|["']>>?["']/;

/** The environment handed to a child process (`env: {...process.env}`, `env=os.environ.copy()`): it stays on the machine. */
const CHILD_ENVIRONMENT =
  /\benv\s*[:=]\s*(?:\{\s*)?(?:\.\.\.)?(?:process\.env|os\.environ(?:\.copy\(\))?|dict\(\s*os\.environ\s*\))|\.\.\.process\.env\b|\*\*os\.environ\b/g;

/** A call that starts a process, whose options may hand it the environment. */
const STARTS_PROCESS = /\b(?:spawn|spawnsync|exec|execfile|execsync|execfilesync|fork|popen|run|call|check_output|check_call)\s*\(/;
/** A public key's file (`id_ed25519.pub`), SSH's host list and configuration, a key handed to ssh to use: nothing read out. */
const PUBLIC_KEY =
  /(?<![^\s"'=])[^\s"'=]*\.pub\b|\.ssh["']?\s*[/,]\s*["']?(?:config|known_hosts)\b|\s-i\s+["']?\S*\.ssh\S*|identityfile\s*[=:]?\s*\S+|\bssh-add\b[^\n]*/g;

/**
 * Each record's patterns with `^` and `$` matching at every line, run over statements joined by line ends. Each is
 * proven free of catastrophic backtracking alone; joined into one alternation per record they ran a fifth faster, but
 * the checker could not prove every joined one.
 */
export const ACROSS_LINES = new Map<FactRecord, readonly RegExp[]>(
  FACT_RECORDS.map((record) => [record, record.patterns.map((p) => new RegExp(p.source, p.flags.includes('m') ? p.flags : `${p.flags}m`))]),
);

/**
 * The fact records that can hold in any of `statements`: a pattern that finds nothing in all of them together (joined by
 * line ends, `^` and `$` matching at each) finds nothing in one. Reading a piece's statements once per record instead of
 * once per statement and record took the facts of public skills' code from a quarter of the scan to a tenth.
 */
export function recordsFor(statements: readonly string[]): readonly FactRecord[] {
  const all = statements.join('\n');
  return FACT_RECORDS.filter((record) => ACROSS_LINES.get(record)!.some((p) => p.test(all)));
}

/** The facts one statement holds, of the records that may hold. */
export function factsOf(statement: string, records: readonly FactRecord[] = FACT_RECORDS): Set<string> {
  const found = new Set<string>();
  const withoutChildEnvironment = STARTS_PROCESS.test(statement) ? statement.replace(CHILD_ENVIRONMENT, ' ') : statement;
  const withoutPublicKeys = /\.pub|\.ssh|identityfile|ssh-add|\s-i\s/.test(statement) ? statement.replace(PUBLIC_KEY, ' ') : statement;
  for (const record of records) {
    const text =
      record.name === 'environment' ? withoutChildEnvironment : record.name === 'credential-store' ? withoutPublicKeys : statement;
    if (record.patterns.some((p) => p.test(text))) found.add(record.name);
  }
  return found;
}
