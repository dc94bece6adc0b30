; Elixir. Capture roles: see query-captures.ts. Earlier patterns win.
; Declarations are calls of the defining macros; the clauses of one function
; are consecutive declarations of one name, merged by the extractor.

; ---- declarations -------------------------------------------------------

((call target: (identifier) @_def (arguments . (alias) @name)) @definition.module
  (#any-of? @_def "defmodule" "defimpl"))
((call target: (identifier) @_def (arguments . (alias) @name)) @definition.interface
  (#eq? @_def "defprotocol"))

((call
  target: (identifier) @_def
  (arguments . [
    (call target: (identifier) @name)
    (identifier) @name
    (binary_operator left: (call target: (identifier) @name) operator: "when")
    (binary_operator left: (identifier) @name operator: "when")
  ])) @definition.function
  (#any-of? @_def "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate"))

; Module attributes that hold values (`@timeout 5_000`), not docs or specs.
((unary_operator
  operator: "@"
  operand: (call target: (identifier) @name)) @definition.constant
  (#not-any-of? @name "doc" "moduledoc" "typedoc" "spec" "impl" "callback" "macrocallback" "behaviour"
    "type" "typep" "opaque" "derive" "dialyzer" "compile" "deprecated" "since" "external_resource"
    "on_load" "before_compile" "after_compile" "on_definition" "optional_callbacks" "enforce_keys"))

((unary_operator
  operator: "@"
  operand: (call target: (identifier) @_kind (arguments . (binary_operator left: [(call target: (identifier) @name) (identifier) @name])))) @definition.type
  (#any-of? @_kind "type" "typep" "opaque"))

; ---- references ---------------------------------------------------------

(identifier) @reference
(alias) @reference
(call target: (dot right: (identifier) @reference.member))
(dot right: (identifier) @reference.member)
((call target: (identifier) @ignore)
  (#any-of? @ignore "def" "defp" "defmacro" "defmacrop" "defmodule" "defprotocol" "defimpl" "defstruct"
    "defguard" "defguardp" "defdelegate" "alias" "import" "require" "use" "quote" "unquote"))

; ---- parameters and locals ---------------------------------------------

[(anonymous_function) (stab_clause)] @local.scope
((call target: (identifier) @_def) @local.scope
  (#any-of? @_def "def" "defp" "defmacro" "defmacrop"))

((call
  target: (identifier) @_def
  (arguments . (call (arguments (identifier) @local.definition))))
  (#any-of? @_def "def" "defp" "defmacro" "defmacrop"))
(stab_clause left: (arguments (identifier) @local.definition))
(binary_operator operator: "=" left: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

((call target: (identifier) @_verb (arguments . (alias) @import.source)) @import
  (#any-of? @_verb "alias" "import" "require" "use"))
