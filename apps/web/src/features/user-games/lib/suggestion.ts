/** One typeahead hit: the id the form sends and the text the list shows. */
export interface Suggestion {
  id: number;
  label: string;
}
