; C++ patterns; c.scm follows, so these win where both match.

(field_declaration_list
  [
    (function_definition
      declarator: [
        (function_declarator declarator: (_) @name)
        (pointer_declarator declarator: (function_declarator declarator: (_) @name))
        (reference_declarator (function_declarator declarator: (_) @name))
      ]) @definition.method
    (field_declaration declarator: (function_declarator declarator: (_) @name)) @definition.method
    (declaration declarator: (function_declarator declarator: (_) @name)) @definition.method
    (template_declaration
      (function_definition declarator: (function_declarator declarator: (_) @name)) @definition.method)
  ])

(function_definition
  declarator: (reference_declarator (function_declarator declarator: (_) @name))) @definition.function

(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type

; Variables directly inside a namespace.
(namespace_definition
  body: (declaration_list
    (declaration
      (type_qualifier) @_const
      declarator: [
        (identifier) @name
        (init_declarator declarator: (identifier) @name)
      ]) @definition.constant)
  (#any-of? @_const "const" "constexpr"))
(namespace_definition
  body: (declaration_list
    (declaration
      declarator: [
        (identifier) @name
        (init_declarator declarator: (identifier) @name)
      ]) @definition.variable))

(namespace_identifier) @reference
(field_initializer (field_identifier) @reference.member)

[(lambda_expression) (template_declaration)] @local.scope
(parameter_declaration declarator: (reference_declarator (identifier) @local.definition))
(optional_parameter_declaration declarator: (identifier) @local.definition)
(for_range_loop declarator: (identifier) @local.definition)
(for_range_loop declarator: (reference_declarator (identifier) @local.definition))
(type_parameter_declaration (type_identifier) @local.definition)
(lambda_capture_specifier (identifier) @local.definition)
