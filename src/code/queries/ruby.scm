; Ruby. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module

(method name: (identifier) @name (#eq? @name "initialize")) @definition.constructor
(program (method name: (_) @name) @definition.function)
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

(assignment left: (constant) @name) @definition.constant

; attr_reader :id, :name
((call
  method: (identifier) @_attr
  arguments: (argument_list (simple_symbol) @name)) @definition.property
  (#any-of? @_attr "attr_reader" "attr_writer" "attr_accessor"))

; ---- references ---------------------------------------------------------

(identifier) @reference
(constant) @reference
(call method: (identifier) @reference.member)

; ---- parameters and locals ---------------------------------------------

[(method) (singleton_method) (block) (do_block) (lambda)] @local.scope

(method_parameters (identifier) @local.definition)
(block_parameters (identifier) @local.definition)
(lambda_parameters (identifier) @local.definition)
(optional_parameter name: (identifier) @local.definition)
(keyword_parameter name: (identifier) @local.definition)
(splat_parameter name: (identifier) @local.definition)
(hash_splat_parameter name: (identifier) @local.definition)
(block_parameter name: (identifier) @local.definition)
(assignment left: (identifier) @local.definition)
(operator_assignment left: (identifier) @local.definition)
(left_assignment_list (identifier) @local.definition)
(for pattern: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

((call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @import.source))) @import
  (#any-of? @_require "require" "require_relative" "load" "autoload"))
