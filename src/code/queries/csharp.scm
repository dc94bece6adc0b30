; C#. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
; `namespace A.B;` holds everything after it.
(file_scoped_namespace_declaration name: (_) @scope.name) @scope.tail
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(enum_member_declaration name: (identifier) @name) @definition.constant

(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
(method_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(property_declaration name: (identifier) @name) @definition.property
(event_declaration name: (identifier) @name) @definition.property

(field_declaration
  (modifier) @_const
  (variable_declaration (variable_declarator name: (identifier) @name))
  (#eq? @_const "const")) @definition.constant
(field_declaration
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field

; ---- references ---------------------------------------------------------

(identifier) @reference
(member_access_expression name: (identifier) @reference.member)
(member_binding_expression name: (identifier) @reference.member)
(qualified_name name: (identifier) @reference.member)

; ---- parameters and locals ---------------------------------------------

[
  (method_declaration)
  (constructor_declaration)
  (local_function_statement)
  (lambda_expression)
  (anonymous_method_expression)
  (accessor_declaration)
  (class_declaration)
  (interface_declaration)
  (struct_declaration)
] @local.scope

(parameter name: (identifier) @local.definition)
(local_declaration_statement
  (variable_declaration (variable_declarator name: (identifier) @local.definition)))
(using_statement
  (variable_declaration (variable_declarator name: (identifier) @local.definition)))
(for_statement
  (variable_declaration (variable_declarator name: (identifier) @local.definition)))
(foreach_statement left: (identifier) @local.definition)
(catch_declaration name: (identifier) @local.definition)
(declaration_expression name: (identifier) @local.definition)
(type_parameter name: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(using_directive) @import
(using_directive name: (identifier) @import.namespace)
(using_directive [(qualified_name) (identifier)] @import.source .)
