; Lua. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

; `function M:total()` is a method of M; `function M.add()` a function in M.
(function_declaration
  name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @definition.method
(function_declaration name: [(identifier) (dot_index_expression)] @name) @definition.function

; `M.new = function(...) end` and `local f = function(...) end`.
(assignment_statement
  (variable_list . name: [(identifier) (dot_index_expression)] @name)
  (expression_list . value: (function_definition) @definition.function))

(chunk
  (variable_declaration
    (assignment_statement (variable_list . name: (identifier) @name))) @definition.variable)
(chunk
  (assignment_statement (variable_list . name: [(identifier) (dot_index_expression)] @name)) @definition.variable)

; ---- references ---------------------------------------------------------

(identifier) @reference
(dot_index_expression field: (identifier) @reference.member)
(method_index_expression method: (identifier) @reference.member)
(field name: (identifier) @ignore)

; ---- parameters and locals ---------------------------------------------

[(function_declaration) (function_definition)] @local.scope

(parameters name: (identifier) @local.definition)
(block (variable_declaration (assignment_statement (variable_list name: (identifier) @local.definition))))
(block (variable_declaration (variable_list name: (identifier) @local.definition)))
(for_generic_clause (variable_list name: (identifier) @local.definition))
(for_numeric_clause name: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

((function_call
  name: (identifier) @_require
  arguments: (arguments . (string content: (string_content) @import.source))) @import
  (#eq? @_require "require"))
