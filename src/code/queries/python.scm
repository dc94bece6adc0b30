; Python. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(class_definition
  body: (block
    [
      (function_definition name: (identifier) @name (#eq? @name "__init__")) @definition.constructor
      (decorated_definition
        definition: (function_definition name: (identifier) @name (#eq? @name "__init__")) @definition.constructor)
    ]))

(class_definition
  body: (block
    [
      (function_definition name: (identifier) @name) @definition.method
      (decorated_definition
        definition: (function_definition name: (identifier) @name) @definition.method)
    ]))

(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name) @definition.class

; Module-level assignments (upper snake case ones become constants).
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.variable))

; Class attributes, and attributes set on self in __init__.
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.property)))
(function_definition
  name: (identifier) @_init
  body: (block
    (expression_statement
      (assignment
        left: (attribute
          object: (identifier) @_self
          attribute: (identifier) @name)) @definition.property))
  (#eq? @_init "__init__")
  (#eq? @_self "self"))

; ---- references ---------------------------------------------------------

(identifier) @reference
(attribute attribute: (identifier) @reference.member)

; ---- parameters and locals ---------------------------------------------

[
  (function_definition)
  (lambda)
  (list_comprehension)
  (set_comprehension)
  (dictionary_comprehension)
  (generator_expression)
] @local.scope

(parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(default_parameter name: (identifier) @local.definition)
(typed_parameter (identifier) @local.definition)
(typed_default_parameter name: (identifier) @local.definition)
(list_splat_pattern (identifier) @local.definition)
(dictionary_splat_pattern (identifier) @local.definition)
(assignment left: (identifier) @local.definition)
(assignment left: (pattern_list (identifier) @local.definition))
(assignment left: (tuple_pattern (identifier) @local.definition))
(for_statement left: (identifier) @local.definition)
(for_statement left: (pattern_list (identifier) @local.definition))
(for_statement left: (tuple_pattern (identifier) @local.definition))
(for_in_clause left: (identifier) @local.definition)
(for_in_clause left: (pattern_list (identifier) @local.definition))
(as_pattern alias: (as_pattern_target (identifier) @local.definition))
(named_expression name: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(import_statement) @import
(import_statement name: (dotted_name) @import.source)
(import_statement
  name: (aliased_import
    name: (dotted_name) @import.source
    alias: (identifier) @import.namespace))

(import_from_statement) @import
(import_from_statement module_name: (_) @import.source)
(import_from_statement name: (dotted_name) @import.name)
(import_from_statement
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias))
(import_from_statement (wildcard_import) @import.name)
