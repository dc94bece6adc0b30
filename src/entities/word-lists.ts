/**
 * Word lists the entity spotter consults. All lower case unless noted;
 * multi-word entries are single-space separated.
 */
import { withStopWords } from "../text/stop-words.js";

function words(list: string): ReadonlySet<string> {
  return new Set(list.trim().split(/\s+/).map((w) => w.replace(/_/g, " ")));
}

/** Function words: never an entity, never the start of one. The base stop words and these. */
export const STOPWORDS = withStopWords(`
  it's us mine whose every none one ones others another either neither many much less least cannot may might must shall
  done else also even yet still yes ok etc via per e.g. i.e. vs let let's we're we've you're you'll don't doesn't isn't
  aren't can't won't it'll there's here's now first second third last next new old see thanks please
`);

/**
 * Words and phrases that name parts of a document or a site rather than
 * anything to look up, even when capitalised ("Usage", "Quick Start").
 */
export const GENERIC_NAMES = words(`
  example examples note notes usage introduction intro overview summary contents table_of_contents index
  home prev previous next up back top menu search login logout sign_in sign_up register download downloads
  install installation installing setup set_up getting_started quick_start quickstart tutorial tutorials
  guide guides docs doc documentation reference references api_reference sdk_reference manual blog blogs
  news faq about contact contacts feature features support help licence license licensing changelog
  readme todo warning warnings important tip tips info caution danger background specification abstract
  conclusion conclusions appendix status version versions description descriptions details options option
  configuration config requirements prerequisites dependencies contributing contribution contributions
  contributors authors author credits acknowledgements acknowledgments maintainers maintainer community
  communication migration issue issues bug bugs types type source sources welcome thank thanks default
  defaults misc miscellaneous links link resources see_also related step steps part chapter section figure
  table list item value field name title text page file files folder directory code data user users
  project projects test tests testing build builds release releases roadmap copyright share sponsor
  sponsors other others more works work usage_examples license_information common_case common_cases
  preface foreword glossary terminology definitions definition rationale motivation goals goal non-goals
  limitations caveats troubleshooting known_issues security privacy terms pricing product products
  solutions company careers press events event team teams partners customers case_studies demo demos
  playground sandbox start end begin main content skip close open edit view show hide more_info
  read_more learn_more related_projects related_work click here today yesterday tomorrow now monday tuesday wednesday thursday friday
  saturday sunday description_of january february march april june july august september october
  november december jan feb mar apr jun jul aug sep sept oct nov dec email e-mail
`);

/**
 * Upper-case words that are not names: the RFC 2119 keywords, file names
 * written in capitals, and abbreviations too general to look up.
 */
export const GENERIC_CAPITALS = words(`
  must should shall may not required recommended optional and or if then else end new old true false null
  none yes no ok license licence readme note notes warning important tip caution deprecated changelog
  contributing authors install copying todo fixme xxx news hacking bugs thanks tbd fyi asap aka ie eg etc vs
  api apis url urls uri uris id ids cpu cpus gpu gpus ram rom sdk sdks cli ui ux dx os pc faq faqs nb ps
  isbn issn doi ai ml it pr prs eof na eta am pm gmt utc kb mb gb tb kib mib gib ms ns get post put patch
  delete head options
`);

/** Acronyms of techniques and formats rather than products: their kind is `concept`. */
export const CONCEPT_ACRONYMS = words(`
  sql orm ascii utf json xml html css http https rest tcp udp dns tls ssl yaml toml csv rpc grpc mvc crud
  jwt oauth sso cors csrf xss acid crdt ffi abi ipc smtp ftp ssh mime uuid regex dsl ide llm nlp rag wal
  mcp posix unicode cdn dom ssr spa pwa sse tty gpl lgpl agpl mpl
`);

/** Last words of a PascalCase identifier that mark it as a code symbol rather than a brand. */
export const CODE_SUFFIXES = words(`
  router options option config configuration client error exception handler manager factory builder
  service provider context request response schema props state store reader writer parser stream buffer
  map set list array type interface controller middleware adapter listener emitter loader resolver
  registry util utils helper callback promise result params args input output id key value element
  component module plugin hook query mutation command action transport session cursor queue task job
  scheduler logger validator serializer encoder decoder iterator visitor wrapper proxy pool connection
  socket channel pipe spec mock stub fixture info data entry item node tree graph row column field record
  event events base impl kind mode flag flags
`);

/** Last words of organisation names. */
export const ORG_SUFFIXES = words(`
  inc inc. ltd ltd. llc corp corp. corporation company co co. gmbh ag plc foundation associates university
  institute consortium association society group labs laboratories council committee agency department
  ministry bank partners alliance federation project collective organization organisation
`);

/** Last words of event names ("the X conference" …). */
export const EVENT_HEADS = words(`
  conference conf summit meetup hackathon workshop festival expo convention symposium congress olympics
  webinar championship war keynote con
`);

/** Last words of capitalised multi-word names that denote ideas rather than products. */
export const CONCEPT_HEADS = words(`
  license licence protocol standard standards specification pattern principle algorithm format
  architecture paradigm api theorem law methodology convention syntax notation semantics search encoding
  scheme model
`);

/** Head nouns too vague to be a concept on their own ("common cases", "the dpkg side"). */
export const GENERIC_HEADS = words(`
  case cases side sides thing things way ways part parts kind kinds sort sorts set number lot lots one
  ones example examples section sections step steps detail details note notes point points time times
  item items piece pieces bit bits means use uses usage idea ideas question questions answer answers
  reason reasons matter stuff place places aspect aspects area areas level levels amount variety couple
  tool tools option options feature features preparation prototyping
`);

/** Opening words of headings that introduce their subject ("Installing Hono"). */
export const HEADING_LEADS = words(`
  installing using configuring supporting understanding building running deploying testing creating
  writing migrating introducing adding defining handling managing choosing enabling customizing
  customising extending debugging working_with setting_up getting_started_with about introduction_to
  overview_of guide_to a_guide_to an_overview_of an_introduction_to what_is what_are
`);

/** Words that announce a person's name just before it. */
export const PERSON_CUES = words(`by author authors maintainer maintainers written_by created_by developed_by maintained_by thanks_to`);

/** Headings under which capitalised two- or three-word names are people. */
export const PERSON_SECTIONS = words(`authors author credits contributors maintainers team people acknowledgements acknowledgments`);

/** File extensions: a dotted name ending in one is a file, not a symbol. */
export const FILE_EXTENSIONS = words(`
  md markdown txt rst html htm xml json yaml yml toml ini cfg conf csv tsv log pdf png jpg jpeg gif svg
  ico webp mp3 mp4 wav zip gz tgz tar bz2 xz 7z js mjs cjs jsx ts mts cts tsx py rb go rs java kt c h cc
  cpp hpp cs php sh bash zsh ps1 bat sql db sqlite lock css scss less vue svelte lua pl swift m mm
  wasm so dll exe dylib a o out
`);

/** Last labels of host names: a dotted name ending in one is a site, not a symbol. */
export const DOMAIN_ENDINGS = words(`com org net dev io tech app ai co uk de fr jp edu gov info sh me xyz`);

/** Global objects of JavaScript: `process.env.X` names X, not a project symbol. */
export const CODE_GLOBALS = words(`
  process console window document globalthis math json object array string number promise reflect
  navigator location history localstorage sessionstorage module exports require self this super
`);

/** Shell commands too general to count as a product when they start a line. */
export const SHELL_BUILTINS = words(`
  cd ls cat echo export set unset source mkdir rm rmdir cp mv touch chmod chown pwd exit sudo env test
  true false if then fi for do done while read printf grep sed awk head tail find xargs sort uniq wc tee
  which type alias kill sleep open start call
`);
