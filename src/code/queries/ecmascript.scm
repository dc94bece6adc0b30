; Shared by JavaScript, TypeScript and TSX. Capture roles: see query-captures.ts.
; Where two patterns name the same identifier, the earlier pattern wins.

; ---- declarations -------------------------------------------------------

(class_body
  (method_definition
    name: (property_identifier) @name
    (#eq? @name "constructor")) @definition.constructor)

(class_body
  (method_definition
    name: [(property_identifier) (private_property_identifier)] @name) @definition.method)

(class_declaration name: (_) @name) @definition.class

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function

; Module-level bindings of a function value are functions.
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(program
  (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))
(export_statement
  declaration: (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function))

; Other module-level bindings.
(program
  (lexical_declaration "const"
    (variable_declarator name: (identifier) @name) @definition.constant))
(program
  (lexical_declaration "let"
    (variable_declarator name: (identifier) @name) @definition.variable))
(program
  (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement
  declaration: (lexical_declaration "const"
    (variable_declarator name: (identifier) @name) @definition.constant))
(export_statement
  declaration: (lexical_declaration "let"
    (variable_declarator name: (identifier) @name) @definition.variable))
(export_statement
  declaration: (variable_declaration
    (variable_declarator name: (identifier) @name) @definition.variable))

; ---- references ---------------------------------------------------------

(identifier) @reference
(shorthand_property_identifier) @reference
(property_identifier) @reference.member
(private_property_identifier) @reference.member

; ---- parameters and locals ---------------------------------------------

[
  (function_declaration)
  (generator_function_declaration)
  (function_expression)
  (generator_function)
  (arrow_function)
  (method_definition)
] @local.scope

(arrow_function parameter: (identifier) @local.definition)
(rest_pattern (identifier) @local.definition)
(object_pattern (shorthand_property_identifier_pattern) @local.definition)
(object_pattern (pair_pattern value: (identifier) @local.definition))
(object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @local.definition))
(array_pattern (identifier) @local.definition)
(variable_declarator name: (identifier) @local.definition)
(for_in_statement left: (identifier) @local.definition)
(catch_clause parameter: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(import_statement) @import
(import_statement source: (string (string_fragment) @import.source))
(import_specifier name: (_) @import.name)
(import_specifier alias: (_) @import.alias)
(namespace_import (identifier) @import.namespace)
(import_clause (identifier) @import.default)

(export_statement source: (_)) @import
(export_statement source: (string (string_fragment) @import.source))
(export_statement
  (export_clause (export_specifier name: (_) @import.name))
  source: (_))
(export_statement "*" @import.name source: (_))

; CommonJS: const x = require("y")
((lexical_declaration
  (variable_declarator
    name: (identifier) @import.namespace
    value: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @import.source))))) @import
  (#eq? @_require "require"))
((variable_declaration
  (variable_declarator
    name: (identifier) @import.namespace
    value: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @import.source))))) @import
  (#eq? @_require "require"))
