; Java. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor

(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(enum_constant name: (identifier) @name) @definition.constant
(record_declaration
  parameters: (formal_parameters (formal_parameter name: (identifier) @name) @definition.field))

; ---- references ---------------------------------------------------------

(identifier) @reference
(type_identifier) @reference
(method_invocation name: (identifier) @reference.member)
(field_access field: (identifier) @reference.member)
(method_reference (identifier) @reference.member)
(package_declaration) @ignore

; ---- parameters and locals ---------------------------------------------

[
  (method_declaration)
  (constructor_declaration)
  (compact_constructor_declaration)
  (lambda_expression)
  (class_declaration)
  (interface_declaration)
] @local.scope

(formal_parameter name: (identifier) @local.definition)
(spread_parameter (variable_declarator name: (identifier) @local.definition))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.definition))
(enhanced_for_statement name: (identifier) @local.definition)
(catch_formal_parameter name: (identifier) @local.definition)
(lambda_expression parameters: (identifier) @local.definition)
(inferred_parameters (identifier) @local.definition)
(resource name: (identifier) @local.definition)
(type_parameter (type_identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(import_declaration) @import
(import_declaration (scoped_identifier) @import.path .)
(import_declaration (scoped_identifier) @import.source (asterisk) @import.name)
