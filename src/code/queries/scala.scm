; Scala. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(class_definition name: (identifier) @name) @definition.class
(object_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type

(compilation_unit (function_definition name: (identifier) @name) @definition.function)
(compilation_unit (function_declaration name: (identifier) @name) @definition.function)
(package_object name: (identifier) @name) @definition.module
(function_definition name: (identifier) @name) @definition.method
(function_declaration name: (identifier) @name) @definition.method
(given_definition name: (identifier) @name) @definition.variable

(compilation_unit (val_definition pattern: (identifier) @name) @definition.variable)
(compilation_unit (var_definition pattern: (identifier) @name) @definition.variable)
(template_body (val_definition pattern: (identifier) @name) @definition.property)
(template_body (var_definition pattern: (identifier) @name) @definition.property)
(template_body (val_declaration name: (identifier) @name) @definition.property)
(template_body (var_declaration name: (identifier) @name) @definition.property)
(class_parameter name: (identifier) @name) @definition.property
(simple_enum_case name: (identifier) @name) @definition.constant
(full_enum_case name: (identifier) @name) @definition.class

; A package clause with a body opens a container.
(package_clause name: (package_identifier) @scope.name body: (_)) @scope

; ---- references ---------------------------------------------------------

(identifier) @reference
(type_identifier) @reference
(field_expression field: (identifier) @reference.member)
(package_clause name: (_) @ignore)

; ---- parameters and locals ---------------------------------------------

[
  (function_definition)
  (lambda_expression)
  (case_clause)
] @local.scope

(parameter name: (identifier) @local.definition)
(bindings (binding name: (identifier) @local.definition))
(block (val_definition pattern: (identifier) @local.definition))
(block (var_definition pattern: (identifier) @local.definition))
(case_clause pattern: (identifier) @local.definition)
(typed_pattern pattern: (identifier) @local.definition)
(lambda_expression parameters: (identifier) @local.definition)
(lambda_expression parameters: (bindings (binding name: (identifier) @local.definition)))
(enumerator . (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(import_declaration) @import
(import_declaration) @import.path
