/** Each shell's fixed completion script (as cobra's): on Tab it runs `petstore __complete <words>` and offers its answer (complete.ts). */

/** bash 4.1 or newer; the bash-completion package is not needed. */
export const bash = `# bash completion for petstore; printed by "petstore completion bash".
# Load it in every new bash, with or without bash-completion: in ~/.bashrc,
#   eval "$(petstore completion bash)"
# or, where bash-completion is loaded, save it in its folder:
#   petstore completion bash > ~/.local/share/bash-completion/completions/petstore
_petstore() {
  local -a words=() lines=()
  local i word cur prefix='' line
  COMPREPLY=()
  # The words up to the cursor, with "--flag=value" joined again (bash splits it at "=").
  for ((i = 1; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if ((i > 1)) && [[ $word == = && \${words[\${#words[@]} - 1]} == -* || \${COMP_WORDS[i - 1]} == = && \${words[\${#words[@]} - 1]} == -*= ]]; then
      words[\${#words[@]} - 1]+=$word
    else
      words+=("$word")
    fi
  done
  cur=\${words[\${#words[@]} - 1]}
  [[ $cur == -*=* ]] && { cur=\${cur#*=}; [[ \${COMP_WORDS[COMP_CWORD]} == -*=* ]] && prefix=\${COMP_WORDS[COMP_CWORD]%%=*}=; }
  mapfile -t lines < <("\${COMP_WORDS[0]}" __complete "\${words[@]}" 2>/dev/null)
  line=\${lines[*]: -1}
  [[ $line == :* ]] || return 0
  unset 'lines[\${#lines[@]} - 1]'
  if ((\${#lines[@]} == 0 && (\${line#:} & 4) == 0)); then
    compopt -o filenames 2>/dev/null
    mapfile -t lines < <(compgen -f -- "$cur")
  fi
  for line in "\${lines[@]}"; do COMPREPLY+=("$prefix\${line%%$'\\t'*}"); done
}
complete -F _petstore petstore
`;

/** zsh with compsys: a file _petstore on $fpath, or evaluated in ~/.zshrc, where it runs compinit unless a framework did. */
export const zsh = `#compdef petstore
# zsh completion for petstore; printed by "petstore completion zsh".
# Load it in every new zsh, with or without a framework: at the end of ~/.zshrc,
#   eval "$(petstore completion zsh)"
# or save it as _petstore in a folder on $fpath, before compinit runs:
#   petstore completion zsh > "\${fpath[1]}/_petstore"
_petstore() {
  local -a lines candidates
  local line
  lines=("\${(@f)$(\${words[1]} __complete "\${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
  [[ \${lines[-1]} == :* ]] || return 1
  local -i directive=\${lines[-1]#:}
  lines[-1]=()
  [[ \${words[CURRENT]} == -*=* ]] && compset -P '*='
  if ((\${#lines} == 0 && (directive & 4) == 0)); then
    _files
    return
  fi
  # _describe reads "name:description", with a colon in the name escaped.
  for line in $lines; do candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}\${\${(M)line%%$'\\t'*}/$'\\t'/:}"); done
  _describe -t petstore 'petstore' candidates
}
if [[ $funcstack[1] == _petstore ]]; then
  _petstore "$@"
else
  # Evaluated in ~/.zshrc: compdef comes with compinit, which a framework (oh-my-zsh, prezto) or the user ran; else run it here.
  (( $+functions[compdef] )) || { autoload -Uz compinit && compinit -i; }
  compdef _petstore petstore
fi
`;

/** fish 3 or newer. */
export const fish = `# fish completion for petstore; printed by "petstore completion fish".
# Load it in every new fish: in ~/.config/fish/config.fish,
#   petstore completion fish | source
# or save it in the folder fish reads:
#   petstore completion fish > ~/.config/fish/completions/petstore.fish
function __petstore_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l lines ($words[1] __complete $words[2..-1] $cur 2>/dev/null)
    string match -q -- ':*' $lines[-1]; or return
    set -l directive (string sub -s 2 -- $lines[-1])
    set -e lines[-1]
    set -l prefix (string match -r -- '^-[^=]*=' $cur)
    if test (count $lines) -eq 0 -a (math "bitand($directive, 4)") -eq 0
        set lines (__fish_complete_path (string sub -s (math (string length -- "$prefix") + 1) -- $cur))
    end
    for line in $lines
        echo "$prefix$line"
    end
end
complete -c petstore -f -a '(__petstore_complete)'
`;

/** PowerShell 5.1 or 7. */
export const powershell = `# PowerShell completion for petstore; printed by "petstore completion powershell".
# Load it in every new PowerShell: in $PROFILE,
#   petstore completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName 'petstore' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    # The words before the cursor, then the one being completed ('' after a space).
    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.Extent.Text })
    $words += $wordToComplete
    # Before PowerShell 7.3 an empty argument reaches a program only written as "".
    if ($wordToComplete -eq '' -and ($PSVersionTable.PSVersion -lt [version]'7.3' -or $PSNativeCommandArgumentPassing -eq 'Legacy')) {
        $words[-1] = '""'
    }
    $out = @(& $words[0] __complete @($words | Select-Object -Skip 1) 2>$null)
    if ($out.Count -eq 0 -or -not $out[-1].StartsWith(':')) { return }
    $directive = [int]$out[-1].Substring(1)
    $prefix = if ($wordToComplete -match '^(-[^=]*=)') { $Matches[1] } else { '' }
    $lines = @($out | Select-Object -SkipLast 1)
    # No candidate: PowerShell's own path completion, unless file names are not wanted.
    if ($lines.Count -eq 0 -and ($directive -band 4)) { return '' }
    foreach ($line in $lines) {
        $name, $tip = $line -split "\`t", 2
        if (-not $tip) { $tip = $name }
        [System.Management.Automation.CompletionResult]::new("$prefix$name", $name, 'ParameterValue', $tip)
    }
}
`;
