; Kotlin. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration (type_identifier) @name (enum_class_body)) @definition.enum
(class_declaration (type_identifier) @name) @definition.class
(object_declaration (type_identifier) @name) @definition.class
(type_alias (type_identifier) @name) @definition.type

(source_file (function_declaration (simple_identifier) @name) @definition.function)
(function_declaration (simple_identifier) @name) @definition.method
(secondary_constructor "constructor" @name) @definition.constructor

(source_file
  (property_declaration (variable_declaration (simple_identifier) @name)) @definition.variable)
(class_body
  (property_declaration (variable_declaration (simple_identifier) @name)) @definition.property)
; `class Cart(val owner: String)`: constructor parameters that declare properties.
(class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.property
(enum_entry (simple_identifier) @name) @definition.constant

; ---- references ---------------------------------------------------------

(simple_identifier) @reference
(type_identifier) @reference
(navigation_suffix (simple_identifier) @reference.member)
(package_header) @ignore

; ---- parameters and locals ---------------------------------------------

[
  (function_declaration)
  (secondary_constructor)
  (lambda_literal)
  (anonymous_function)
] @local.scope

(parameter (simple_identifier) @local.definition)
(lambda_parameters (variable_declaration (simple_identifier) @local.definition))
(statements (property_declaration (variable_declaration (simple_identifier) @local.definition)))
(for_statement (variable_declaration (simple_identifier) @local.definition))
(catch_block (simple_identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(import_header) @import
(import_header (identifier) @import.path)
(import_header (import_alias (type_identifier) @import.alias))
