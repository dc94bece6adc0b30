; Swift. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

; An extension adds members to a type declared elsewhere: a container, not a declaration.
(class_declaration "extension" name: (user_type (type_identifier) @scope.name)) @scope
(class_declaration "struct" name: (type_identifier) @name) @definition.struct
(class_declaration "enum" name: (type_identifier) @name) @definition.enum
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type

(source_file (function_declaration (simple_identifier) @name) @definition.function)
(function_declaration (simple_identifier) @name) @definition.method
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(function_declaration "init" @name) @definition.constructor

(source_file
  (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
(class_body
  (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(enum_class_body
  (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property
(enum_entry name: (simple_identifier) @name) @definition.constant

; ---- references ---------------------------------------------------------

(simple_identifier) @reference
(type_identifier) @reference
(navigation_suffix suffix: (simple_identifier) @reference.member)
(parameter external_name: (simple_identifier) @ignore)
(value_argument_label) @ignore

; ---- parameters and locals ---------------------------------------------

[
  (function_declaration)
  (lambda_literal)
] @local.scope

(parameter name: (simple_identifier) @local.definition)
(lambda_parameter (simple_identifier) @local.definition)
(statements (property_declaration name: (pattern bound_identifier: (simple_identifier) @local.definition)))
(for_statement item: (pattern bound_identifier: (simple_identifier) @local.definition))

; ---- imports ------------------------------------------------------------

(import_declaration) @import
(import_declaration (identifier) @import.path)
