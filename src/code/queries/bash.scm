; Bash. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(function_definition name: (word) @name) @definition.function

; Script-level variables; readonly ones are constants.
(program
  (declaration_command "readonly"
    (variable_assignment name: (variable_name) @name)) @definition.constant)
(program
  (declaration_command
    (variable_assignment name: (variable_name) @name)) @definition.variable)
(program
  (variable_assignment name: (variable_name) @name) @definition.variable)

; ---- references ---------------------------------------------------------

(command name: (command_name (word) @reference))
(simple_expansion (variable_name) @reference)
(expansion (variable_name) @reference)
(variable_assignment name: (variable_name) @reference)
((variable_name) @ignore (#match? @ignore "^[0-9]+$"))

; ---- parameters and locals ---------------------------------------------

(function_definition) @local.scope
(declaration_command (variable_assignment name: (variable_name) @local.definition))
(declaration_command (variable_name) @local.definition)
(for_statement variable: (variable_name) @local.definition)

; ---- imports ------------------------------------------------------------

((command
  name: (command_name (word) @_source)
  argument: (_) @import.source) @import
  (#any-of? @_source "source" "."))
