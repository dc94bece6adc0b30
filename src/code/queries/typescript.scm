; TypeScript and TSX additions to ecmascript.scm.

(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace
(module name: [(identifier) (nested_identifier)] @name) @definition.module
(function_signature name: (identifier) @name) @definition.function

(class_body
  (method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body
  (abstract_method_signature name: [(property_identifier) (private_property_identifier)] @name) @definition.method)
(class_body
  (public_field_definition name: [(property_identifier) (private_property_identifier)] @name) @definition.property)
(interface_body
  (method_signature name: (property_identifier) @name) @definition.method)
(interface_body
  (property_signature name: (property_identifier) @name) @definition.property)

; Constructor parameter properties: constructor(private options: Options)
(method_definition
  name: (property_identifier) @_constructor
  parameters: (formal_parameters
    (required_parameter
      (accessibility_modifier)
      pattern: (identifier) @name) @definition.property)
  (#eq? @_constructor "constructor"))

(enum_body name: (property_identifier) @name @definition.constant)
(enum_body (enum_assignment name: (property_identifier) @name) @definition.constant)

; Ambient bindings: declare var/let/const.
(ambient_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))
(ambient_declaration
  (lexical_declaration "const"
    (variable_declarator name: (identifier) @name) @definition.constant))
(ambient_declaration
  (lexical_declaration "let"
    (variable_declarator name: (identifier) @name) @definition.variable))

; Bindings directly inside a namespace body.
(internal_module
  body: (statement_block
    (lexical_declaration "const"
      (variable_declarator name: (identifier) @name) @definition.constant)))
(internal_module
  body: (statement_block
    (lexical_declaration "let"
      (variable_declarator name: (identifier) @name) @definition.variable)))
(internal_module
  body: (statement_block
    (variable_declaration
      (variable_declarator name: (identifier) @name) @definition.variable)))

(type_identifier) @reference

; Type parameters are locals of what declares them.
[
  (class_declaration)
  (abstract_class_declaration)
  (interface_declaration)
  (type_alias_declaration)
  (function_signature)
  (method_signature)
] @local.scope
(type_parameter name: (type_identifier) @local.definition)
(required_parameter pattern: (identifier) @local.definition)
(optional_parameter pattern: (identifier) @local.definition)
