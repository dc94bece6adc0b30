; Zig. Capture roles: see query-captures.ts. Earlier patterns win.
; Types are values: `const Cart = struct { ... }` declares a struct.

; ---- declarations -------------------------------------------------------

(variable_declaration . (identifier) @name (struct_declaration)) @definition.struct
(variable_declaration . (identifier) @name (enum_declaration)) @definition.enum
(variable_declaration . (identifier) @name (union_declaration)) @definition.struct
(variable_declaration . (identifier) @name (opaque_declaration)) @definition.type
(variable_declaration . (identifier) @name (error_set_declaration)) @definition.type

(source_file (function_declaration name: (identifier) @name) @definition.function)
(function_declaration name: (identifier) @name) @definition.method

(source_file (variable_declaration "const" . (identifier) @name) @definition.constant)
(source_file (variable_declaration . (identifier) @name) @definition.variable)
(struct_declaration (variable_declaration . (identifier) @name) @definition.constant)
(union_declaration (variable_declaration . (identifier) @name) @definition.constant)
(enum_declaration (variable_declaration . (identifier) @name) @definition.constant)
(opaque_declaration (variable_declaration . (identifier) @name) @definition.constant)
(struct_declaration (container_field name: (identifier) @name) @definition.field)
(union_declaration (container_field name: (identifier) @name) @definition.field)
(enum_declaration (container_field name: (identifier) @name) @definition.constant)

; ---- references ---------------------------------------------------------

(identifier) @reference
(field_expression member: (identifier) @reference.member)
((identifier) @ignore (#eq? @ignore "_"))

; ---- parameters and locals ---------------------------------------------

[(function_declaration) (test_declaration)] @local.scope

(parameter name: (identifier) @local.definition)
(block (variable_declaration . (identifier) @local.definition))
(payload (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

((builtin_function
  (builtin_identifier) @_import
  (arguments . (string (string_content) @import.source))) @import
  (#eq? @_import "@import"))
